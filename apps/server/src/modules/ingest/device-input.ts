import { describePayloadError, EventPayload, UpPayload, type UpRecord } from '@coldchain/contract';
import type { KnownDevice } from './device-directory';
import type { IngestService } from './ingest.service';
import type { IngestResult } from './write-batch';

export type DeviceInputOutcome = { ok: true; result: IngestResult } | { ok: false; reason: string };

function parseJson(body: Buffer | string | unknown): { ok: true; value: unknown } | { ok: false } {
  if (typeof body !== 'string' && !Buffer.isBuffer(body)) return { ok: true, value: body };
  try {
    return { ok: true, value: JSON.parse(body.toString()) };
  } catch {
    return { ok: false };
  }
}

/** Validates an `up` payload and stores it; shared by MQTT and HTTP so both give the same answers. */
export async function receiveReadings(
  ingest: IngestService,
  device: KnownDevice,
  body: Buffer | string | unknown,
): Promise<DeviceInputOutcome> {
  const json = parseJson(body);
  if (!json.ok) return { ok: false, reason: 'payload: not valid JSON' };
  const parsed = UpPayload.safeParse(json.value);
  if (!parsed.success) return { ok: false, reason: describePayloadError(parsed.error) };
  const result = await ingest.ingest(device, parsed.data.records as UpRecord[]);
  return { ok: true, result };
}

/** Validates an event payload and records it; the same event sent twice is stored once. */
export async function receiveEvent(
  ingest: IngestService,
  device: KnownDevice,
  body: Buffer | string | unknown,
): Promise<{ ok: true } | { ok: false; reason: string }> {
  const json = parseJson(body);
  if (!json.ok) return { ok: false, reason: 'payload: not valid JSON' };
  const parsed = EventPayload.safeParse(json.value);
  if (!parsed.success) return { ok: false, reason: describePayloadError(parsed.error) };
  await ingest.recordEvent(device, parsed.data);
  return { ok: true };
}

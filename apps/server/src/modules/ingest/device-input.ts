import { describePayloadError, EventPayload, UpPayload, type UpRecord } from '@coldchain/contract';
import type { KnownDevice } from './device-directory';
import type { IngestService } from './ingest.service';
import { instantRefusal, type RefusedRecord, splitByWindow } from './reading-window';
import { UnstorableMessage } from './storage-failure';
import type { IngestResult } from './write-batch';

/** What a device is told about an `up` message it sent. */
export interface ReadingsAnswer extends IngestResult {
  /** Records refused for their instant (outside the accepted window); the others were stored. */
  refusedRecords: RefusedRecord[];
}

export type DeviceInputOutcome = { ok: true; result: ReadingsAnswer } | { ok: false; reason: string };

function parseJson(body: Buffer | string | unknown): { ok: true; value: unknown } | { ok: false } {
  if (typeof body !== 'string' && !Buffer.isBuffer(body)) return { ok: true, value: body };
  try {
    return { ok: true, value: JSON.parse(body.toString()) };
  } catch {
    return { ok: false };
  }
}

/**
 * Validates an `up` payload and stores it; shared by MQTT and HTTP so both give the same answers.
 * A payload with a malformed field is refused whole. Records dated outside the accepted window
 * are refused one by one and the others stored, so one record from a glitching clock does not
 * lose a day of back-fill; a message whose every record is refused is refused whole.
 */
export async function receiveReadings(
  ingest: IngestService,
  device: KnownDevice,
  body: Buffer | string | unknown,
): Promise<DeviceInputOutcome> {
  const json = parseJson(body);
  if (!json.ok) return { ok: false, reason: 'payload: not valid JSON' };
  const parsed = UpPayload.safeParse(json.value);
  if (!parsed.success) return { ok: false, reason: describePayloadError(parsed.error) };
  const { accepted, refused } = splitByWindow(parsed.data.records, Date.now(), ingest.limits.window);
  if (accepted.length === 0) return { ok: false, reason: refused[0]!.error };
  try {
    const result = await ingest.ingest(device, accepted as UpRecord[]);
    return { ok: true, result: { ...result, refusedRecords: refused } };
  } catch (error) {
    if (error instanceof UnstorableMessage) return { ok: false, reason: error.message };
    throw error;
  }
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
  const refusal = instantRefusal(parsed.data.ts, Date.now(), ingest.limits.window);
  if (refusal) return { ok: false, reason: `ts: ${refusal}` };
  await ingest.recordEvent(device, parsed.data);
  return { ok: true };
}

/**
 * What a device should hear on its error topic about a message that was stored (MQTT has no
 * answer body): the channels it does not have and the records refused for their instant.
 * Null when there is nothing to say.
 */
export function storedWithRemarks(
  result: ReadingsAnswer,
): { error: string; refusedRecords?: RefusedRecord[] } | null {
  const remarks: string[] = [];
  if (result.unknownChannels.length > 0) {
    remarks.push(
      `channels ${result.unknownChannels.join(', ')} do not exist on this device; their values were not stored`,
    );
  }
  if (result.refusedRecords.length > 0) {
    const first = result.refusedRecords[0]!.error;
    remarks.push(
      `${result.refusedRecords.length} record(s) refused and not stored, the others were stored; first: ${first}`,
    );
  }
  if (remarks.length === 0) return null;
  return {
    error: remarks.join('; '),
    ...(result.refusedRecords.length > 0 ? { refusedRecords: result.refusedRecords } : {}),
  };
}

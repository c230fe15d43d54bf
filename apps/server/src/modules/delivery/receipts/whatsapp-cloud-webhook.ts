import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Receipt } from './apply-receipt';

/** Where Meta posts the WhatsApp Cloud API webhooks (and checks the address with a GET). */
export const WHATSAPP_CLOUD_WEBHOOK_PATH = '/hooks/whatsapp-cloud';

/** `X-Hub-Signature-256`: `sha256=` + hex HMAC-SHA256 of the raw body, keyed with the app secret. */
export function cloudSignature(appSecret: string, rawBody: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody, 'utf8').digest('hex')}`;
}

export function cloudSignatureValid(
  appSecret: string,
  rawBody: string,
  signature: string | undefined,
): boolean {
  if (!signature) return false;
  const expected = Buffer.from(cloudSignature(appSecret, rawBody));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

interface CloudStatus {
  id?: unknown;
  status?: unknown;
  errors?: { code?: unknown; title?: unknown; message?: unknown }[];
}

/**
 * The final statuses in a webhook: `delivered`/`read` and `failed` (with Meta's error code and
 * title). `sent` says nothing we did not know; messages and other fields are ignored.
 */
export function cloudReceipts(payload: unknown): Receipt[] {
  const receipts: Receipt[] = [];
  const entries = (payload as { entry?: unknown })?.entry;
  if (!Array.isArray(entries)) return receipts;
  for (const entry of entries) {
    const changes = (entry as { changes?: unknown })?.changes;
    if (!Array.isArray(changes)) continue;
    for (const change of changes) {
      const statuses = (change as { value?: { statuses?: unknown } })?.value?.statuses;
      if (!Array.isArray(statuses)) continue;
      for (const s of statuses as CloudStatus[]) {
        if (typeof s?.id !== 'string') continue;
        if (s.status === 'delivered' || s.status === 'read')
          receipts.push({ providerId: s.id, delivered: true, error: null });
        else if (s.status === 'failed') {
          const e = s.errors?.[0];
          const detail = e ? ` ${String(e.code ?? '')}: ${String(e.title ?? e.message ?? '')}` : '';
          receipts.push({ providerId: s.id, delivered: false, error: `WhatsApp Cloud: failed${detail}` });
        }
      }
    }
  }
  return receipts;
}

import { createHmac } from 'node:crypto';

/** What an adapter knows of one attempt: the fixed body and the address's key material. */
export interface AdapterInput {
  deliveryId: number;
  event: string;
  body: string;
  secret: string;
  keyId: string | null;
  /** When the attempt is made: a signature over it lets a receiver refuse replays. */
  now: Date;
}

/**
 * Shapes one delivery's request for a kind of receiver. The body is fixed when the delivery is
 * queued (a retry sends the same bytes), so an adapter adds what must be fresh on each attempt:
 * its headers and signature. A new platform's protocol is one more entry here.
 */
export interface PushAdapter {
  headers(input: AdapterInput): Record<string, string>;
}

/** `X-Signature`: `sha256=` and the lowercase hex HMAC-SHA256 of `signed` (API.md "Push docking"). */
export function hmacSignature(secret: string, signed: string): string {
  return `sha256=${createHmac('sha256', secret).update(signed).digest('hex')}`;
}

/** A company's own push address: the headers API.md "Push docking" pins. */
const companyPush: PushAdapter = {
  headers: ({ deliveryId, event, body, secret }) => ({
    'user-agent': 'coldchain-push/1',
    'x-event': event,
    'x-delivery-id': String(deliveryId),
    'x-signature': hmacSignature(secret, body),
  }),
};

/**
 * The generic platform protocol (JSON over HTTPS, signed; docs/API.md "Platform docking"):
 * the push body, with the sender named by `X-Platform-Key` and the signature covering the
 * attempt's time as well as the body (`<X-Timestamp>.<body>`), so a captured request cannot be
 * replayed later.
 */
const genericJson: PushAdapter = {
  headers: ({ deliveryId, event, body, secret, keyId, now }) => {
    const timestamp = String(Math.floor(now.getTime() / 1000));
    return {
      'user-agent': 'coldchain-dock/1',
      'x-event': event,
      'x-delivery-id': String(deliveryId),
      'x-platform-key': keyId ?? '',
      'x-timestamp': timestamp,
      'x-signature': hmacSignature(secret, `${timestamp}.${body}`),
    };
  },
};

const ADAPTERS: Record<string, PushAdapter> = { push: companyPush, 'generic-json': genericJson };

/** The adapter of an address; an unknown name (a protocol removed since) fails loudly. */
export function adapterFor(name: string): PushAdapter {
  const adapter = ADAPTERS[name];
  if (!adapter) throw new Error(`no push adapter "${name}"`);
  return adapter;
}

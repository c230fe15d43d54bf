/** What every channel adapter (one file each in this folder) offers the delivery worker. */

export interface Recipient {
  userId: number;
  name: string;
  email: string | null;
  phone: string | null;
  /** The openid at the WeChat official account (personal centre binding); null = not bound. */
  wechatOpenId?: string | null;
  /** Still follows the account and has not turned its messages off. */
  wechatFollowed?: boolean;
}

export interface OutgoingAlarm {
  /** The address the adapter chose with `address()`. */
  to: string;
  subject: string;
  text: string;
  language: 'en' | 'cn';
  /** Stable per notification: providers that support it drop a repeated send. */
  idempotencyKey: string;
}

export interface ChannelAdapter {
  channel: string;
  /** False when its provider settings are missing: rows are marked "not configured". */
  configured: boolean;
  /** The recipient's address on this channel, null when the user has none. */
  address(recipient: Recipient): string | null;
  /** Resolves with the provider's message id; throws ProviderError on failure. */
  send(message: OutgoingAlarm): Promise<string | null>;
}

/** A failed send; `permanent` ones (bad number, rejected credentials) are not retried. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly permanent = false,
  ) {
    super(message);
  }
}

/** Phone numbers as stored (account or phone column) to E.164; bare 11-digit mainland numbers get +86. */
export function phoneOf(recipient: Recipient): string | null {
  const raw = recipient.phone?.trim();
  if (!raw) return null;
  const digits = raw.replace(/[\s()-]/g, '');
  if (/^\+\d{6,15}$/.test(digits)) return digits;
  if (/^1\d{10}$/.test(digits)) return `+86${digits}`;
  if (/^\d{6,15}$/.test(digits)) return `+${digits}`;
  return null;
}

/** fetch with a hard timeout; network errors and 5xx/408/429 are retryable, other 4xx are not. */
export async function providerFetch(
  url: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<{ status: number; body: string }> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const e = error as Error;
    const reason = e.name === 'TimeoutError' ? `timed out after ${timeoutMs} ms` : e.message;
    throw new ProviderError(`provider unreachable: ${reason}`);
  }
  const body = await response.text().catch(() => '');
  if (!response.ok) {
    const permanent =
      response.status >= 400 && response.status < 500 && ![408, 429].includes(response.status);
    throw new ProviderError(`provider answered ${response.status}: ${body.slice(0, 200)}`, permanent);
  }
  return { status: response.status, body };
}

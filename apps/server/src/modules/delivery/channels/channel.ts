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
  /** E-mail only: the same message as HTML, with what text cannot carry (a camera picture). */
  html?: string;
  language: 'en' | 'cn';
  /** Stable per notification: providers that support it drop a repeated send. */
  idempotencyKey: string;
  /** The `alarm_notifications` row, named in the status callback address so a receipt finds it. */
  notificationId: number;
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

/**
 * A failed send; `permanent` ones (bad number, unsubscribed, rejected credentials) are not retried
 * (provider-errors.ts sorts each provider's codes). `notFollowing`: WeChat says the recipient no
 * longer follows the official account, so the profile's follow state is cleared.
 */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly permanent = false,
    readonly notFollowing = false,
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

/**
 * fetch with a hard timeout. Network errors and timeouts throw a temporary ProviderError; every
 * answer is returned, because a provider's verdict is in its body (a 200 can carry a failure, a 400
 * can carry a rate limit) and only its adapter can read it.
 */
export async function providerFetch(
  url: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<{ status: number; ok: boolean; body: string; json: Record<string, unknown> | null }> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const e = error as Error;
    const reason = e.name === 'TimeoutError' ? `timed out after ${timeoutMs} ms` : e.message;
    throw new ProviderError(`provider unreachable: ${reason}`);
  }
  const body = await response.text().catch(() => '');
  let json: Record<string, unknown> | null = null;
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object') json = parsed as Record<string, unknown>;
  } catch {
    // Not JSON (a proxy's error page): the adapter judges by the status alone.
  }
  return { status: response.status, ok: response.ok, body, json };
}

/** A number field of a provider's JSON answer, null when absent or not a number. */
export function numberField(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return Number(value);
  return null;
}

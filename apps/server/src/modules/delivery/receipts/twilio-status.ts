import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Receipt } from './apply-receipt';

/** Where Twilio posts its status callbacks (outside /api: Twilio has no session, it signs instead). */
export const TWILIO_STATUS_PATH = '/hooks/twilio/status';

/**
 * Twilio's request signature: base64 HMAC-SHA1, keyed with the auth token, of the full address
 * Twilio called followed by every POST parameter, sorted by name, as name + value.
 * https://www.twilio.com/docs/usage/security#validating-requests
 */
export function twilioSignature(authToken: string, url: string, params: Record<string, string>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((text, key) => text + key + params[key], url);
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

export function twilioSignatureValid(
  authToken: string,
  url: string,
  params: Record<string, string>,
  signature: string | undefined,
): boolean {
  if (!signature) return false;
  const expected = Buffer.from(twilioSignature(authToken, url, params));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * What a status callback says about the message, or null when it says nothing final: messages
 * report `delivered`/`read` or `failed`/`undelivered` (with ErrorCode); calls report their end,
 * `completed` (answered) or `busy`, `no-answer`, `failed`, `canceled`.
 */
export function twilioReceipt(params: Record<string, string>): Receipt | null {
  const sid = params.MessageSid ?? params.CallSid ?? params.SmsSid;
  if (!sid) return null;
  const code = params.ErrorCode ? ` ${params.ErrorCode}` : '';
  if (params.MessageStatus !== undefined) {
    const status = params.MessageStatus;
    if (status === 'delivered' || status === 'read') return { providerId: sid, delivered: true, error: null };
    if (status === 'failed' || status === 'undelivered')
      return { providerId: sid, delivered: false, error: `Twilio: ${status}, error${code || ' unknown'}` };
    return null;
  }
  const call = params.CallStatus;
  if (call === 'completed') return { providerId: sid, delivered: true, error: null };
  if (call && ['busy', 'no-answer', 'failed', 'canceled'].includes(call))
    return {
      providerId: sid,
      delivered: false,
      error: `Twilio: call ${call}${code ? `, error${code}` : ''}`,
    };
  return null;
}

import {
  type ChannelAdapter,
  numberField,
  type OutgoingAlarm,
  ProviderError,
  providerFetch,
} from './channel';
import { twilioErrorIsPermanent } from './provider-errors';

/** Twilio-compatible REST API settings (TWILIO_*); any compatible provider works with its base URL. */
export interface TwilioConfig {
  baseUrl: string;
  accountSid: string;
  authToken: string;
  from?: string;
  whatsappFrom?: string;
}

/**
 * Where Twilio reports what became of a message or call (delivery-receipts.routes.ts), or null
 * without PUBLIC_URL: Twilio cannot reach an address it was not given, so none is requested.
 */
export type StatusCallbackUrl = ((notificationId: number) => string) | null;

/** Statuses in a create answer that mean Twilio already gave the message up. */
const FAILED_ON_CREATE = ['failed', 'undelivered', 'canceled', 'busy', 'no-answer'];

/**
 * POSTs a form to `{base}/2010-04-01/Accounts/{sid}/{resource}.json` with Basic auth and
 * Twilio's idempotency header, and returns the created resource's `sid`. The answer is judged by
 * its body, not its status: a 2xx without a `sid`, or with a failed status or an error code, is a
 * failure, sorted permanent or temporary by its code (provider-errors.ts).
 */
export async function twilioPost(
  config: TwilioConfig,
  resource: 'Messages' | 'Calls',
  fields: Record<string, string>,
  message: OutgoingAlarm,
  timeoutMs: number,
  statusCallback: StatusCallbackUrl,
): Promise<string> {
  const base = config.baseUrl.replace(/\/+$/, '');
  const url = `${base}/2010-04-01/Accounts/${encodeURIComponent(config.accountSid)}/${resource}.json`;
  const form = { ...fields };
  if (statusCallback) form.StatusCallback = statusCallback(message.notificationId);
  const { status, ok, body, json } = await providerFetch(
    url,
    {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${config.accountSid}:${config.authToken}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        'I-Twilio-Idempotency-Token': message.idempotencyKey,
      },
      body: new URLSearchParams(form).toString(),
    },
    timeoutMs,
  );
  // Error answers carry `code`; created resources carry `error_code` and `status`.
  const code = numberField(json?.code) ?? numberField(json?.error_code);
  const detail = String(json?.message ?? json?.error_message ?? body.slice(0, 200));
  if (!ok) {
    throw new ProviderError(
      `Twilio answered ${status}${code !== null ? `, error ${code}` : ''}: ${detail}`,
      twilioErrorIsPermanent(code, status),
    );
  }
  const sid = typeof json?.sid === 'string' && json.sid !== '' ? json.sid : null;
  const state = typeof json?.status === 'string' ? json.status : '';
  if (!json) throw new ProviderError(`Twilio answered ${status} with a body that is not JSON`);
  if (sid === null || code !== null || FAILED_ON_CREATE.includes(state)) {
    // A 2xx that is not a sent message: judge it by its code; without one, a retry may help.
    throw new ProviderError(
      `Twilio did not accept the message (status ${state || 'none'}${code !== null ? `, error ${code}` : ''}${sid ? '' : ', no sid'})${json.error_message ? `: ${String(json.error_message)}` : ''}`,
      code !== null && twilioErrorIsPermanent(code, 500),
    );
  }
  return sid;
}

export type TwilioChannelFactory = (
  config: TwilioConfig | undefined,
  timeoutMs: number,
  statusCallback: StatusCallbackUrl,
) => ChannelAdapter;

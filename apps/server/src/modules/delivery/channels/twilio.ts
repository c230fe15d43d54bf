import { type ChannelAdapter, type OutgoingAlarm, ProviderError, providerFetch } from './channel';

/** Twilio-compatible REST API settings (TWILIO_*); any compatible provider works with its base URL. */
export interface TwilioConfig {
  baseUrl: string;
  accountSid: string;
  authToken: string;
  from?: string;
  whatsappFrom?: string;
}

/**
 * POSTs a form to `{base}/2010-04-01/Accounts/{sid}/{resource}.json` with Basic auth and
 * Twilio's idempotency header, and returns the created resource's `sid`.
 */
export async function twilioPost(
  config: TwilioConfig,
  resource: 'Messages' | 'Calls',
  fields: Record<string, string>,
  message: OutgoingAlarm,
  timeoutMs: number,
): Promise<string | null> {
  const base = config.baseUrl.replace(/\/+$/, '');
  const url = `${base}/2010-04-01/Accounts/${encodeURIComponent(config.accountSid)}/${resource}.json`;
  const { body } = await providerFetch(
    url,
    {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${config.accountSid}:${config.authToken}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        'I-Twilio-Idempotency-Token': message.idempotencyKey,
      },
      body: new URLSearchParams(fields).toString(),
    },
    timeoutMs,
  );
  try {
    return (JSON.parse(body) as { sid?: string }).sid ?? null;
  } catch {
    throw new ProviderError('provider answered with a body that is not JSON');
  }
}

export type TwilioChannelFactory = (config: TwilioConfig | undefined, timeoutMs: number) => ChannelAdapter;

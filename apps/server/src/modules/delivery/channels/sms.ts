import { phoneOf } from './channel';
import { type TwilioChannelFactory, twilioPost } from './twilio';

/** SMS through Messages.json (To, From, Body). */
export const smsChannel: TwilioChannelFactory = (config, timeoutMs, statusCallback) => ({
  channel: 'sms',
  configured: Boolean(config?.from),
  address: phoneOf,
  send: (message) =>
    twilioPost(
      config!,
      'Messages',
      { To: message.to, From: config!.from!, Body: message.text },
      message,
      timeoutMs,
      statusCallback,
    ),
});

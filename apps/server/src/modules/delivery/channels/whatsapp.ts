import { phoneOf } from './channel';
import { type TwilioChannelFactory, twilioPost } from './twilio';

/** WhatsApp through Twilio (WHATSAPP_PROVIDER=twilio): Messages.json with `whatsapp:` addresses (TWILIO_WHATSAPP_FROM). */
export const whatsappChannel: TwilioChannelFactory = (config, timeoutMs, statusCallback) => ({
  channel: 'whatsapp',
  configured: Boolean(config?.whatsappFrom),
  address: phoneOf,
  send: (message) =>
    twilioPost(
      config!,
      'Messages',
      { To: `whatsapp:${message.to}`, From: `whatsapp:${config!.whatsappFrom!}`, Body: message.text },
      message,
      timeoutMs,
      statusCallback,
    ),
});

import { phoneOf } from './channel';
import { type TwilioChannelFactory, twilioPost } from './twilio';

const escapeXml = (text: string) =>
  text.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!,
  );

/** The spoken alarm: TwiML `<Say>` in the recipient's language, said twice. */
export function callTwiml(text: string, language: 'en' | 'cn'): string {
  const say = `<Say language="${language === 'cn' ? 'zh-CN' : 'en-US'}">${escapeXml(text)}</Say>`;
  return `<Response>${say}<Pause length="1"/>${say}</Response>`;
}

/** A phone call through Calls.json (To, From, Twiml). */
export const callChannel: TwilioChannelFactory = (config, timeoutMs, statusCallback) => ({
  channel: 'call',
  configured: Boolean(config?.from),
  address: phoneOf,
  send: (message) =>
    twilioPost(
      config!,
      'Calls',
      { To: message.to, From: config!.from!, Twiml: callTwiml(message.text, message.language) },
      message,
      timeoutMs,
      statusCallback,
    ),
});

/**
 * Which provider errors can never succeed on a retry. A permanent error gives the message up at
 * once ("failed", credit refunded); anything else is retried with backoff up to
 * DELIVERY_MAX_ATTEMPTS. An unknown code is retried: for an alarm, a few wasted attempts cost less
 * than a message given up that a retry would have delivered.
 */

/**
 * Twilio error codes (https://www.twilio.com/docs/api/errors) that describe the number, the
 * recipient's choice or our account, not a passing condition.
 */
const TWILIO_PERMANENT = new Set([
  20003, // authentication failed (wrong TWILIO_AUTH_TOKEN)
  20404, // resource not found (wrong account SID)
  21211, // invalid 'To' number
  21214, // 'To' number cannot be reached
  21217, // invalid phone number
  21219, // 'To' not verified (trial account)
  21401, // invalid phone number
  21408, // sending to this region not enabled
  21421, // invalid phone number
  21601, // not a valid SMS-capable number
  21606, // 'From' is not a valid SMS-capable number of the account
  21608, // unverified number (trial account)
  21610, // recipient unsubscribed (replied STOP)
  21612, // the message cannot be routed to this number
  21614, // not a mobile number
  30004, // message blocked
  30005, // unknown destination handset
  30006, // landline or unreachable carrier
  30007, // filtered as spam by the carrier
  63003, // WhatsApp: the recipient is not a WhatsApp user
  63016, // WhatsApp: free-form message outside the 24-hour window (needs a template)
  63024, // WhatsApp: invalid recipient
]);

/** Twilio codes that say "later": rate limits and Twilio's own trouble. */
const TWILIO_TEMPORARY = new Set([20429, 20500, 20503, 30001, 30008, 63018]);

/** Whether a Twilio error is permanent; `httpStatus` decides for codes not listed. */
export function twilioErrorIsPermanent(code: number | null, httpStatus: number): boolean {
  if (code !== null && TWILIO_PERMANENT.has(code)) return true;
  if (code !== null && TWILIO_TEMPORARY.has(code)) return false;
  return httpStatusIsPermanent(httpStatus);
}

/**
 * WeChat `errcode`s (official-account global return codes) that no retry fixes: the recipient
 * does not follow the account, the openid or template is wrong, or the account's settings are.
 */
const WECHAT_PERMANENT = new Set([
  40003, // invalid openid
  40013, // invalid appid
  40037, // invalid template_id
  40125, // invalid appsecret
  40164, // calling IP not on the account's whitelist
  43004, // require subscribe: the recipient does not follow the account
  43101, // the user refused messages of this account
  47001, // data format error
  47003, // template argument invalid
  48001, // API not authorised for this account
]);

/** `errcode` 43004: the openid no longer follows the official account. */
export const WECHAT_NOT_FOLLOWING = 43004;

export function wechatErrorIsPermanent(errcode: number): boolean {
  return WECHAT_PERMANENT.has(errcode);
}

/**
 * WhatsApp Cloud API error codes (Graph API `error.code`, also in status webhooks). Meta answers
 * most errors with HTTP 400, rate limits included, so the code decides, not the status.
 */
const CLOUD_PERMANENT = new Set([
  10, // permission denied
  100, // invalid parameter
  190, // access token expired or invalid
  200, // permission error
  131008, // required parameter missing
  131009, // parameter value not valid
  131021, // recipient cannot be the sender
  131026, // message undeliverable (not a WhatsApp user, old app, terms not accepted)
  131030, // recipient not in the allowed list (test number)
  131031, // business account locked
  131045, // phone number not registered (certificate)
  131047, // re-engagement: more than 24 hours since the user's last message
  131050, // the user stopped these messages
  131051, // unsupported message type
  132000, // template parameter count mismatch
  132001, // template does not exist in this language
  132005, // template text too long
  132007, // template format policy violated
  132012, // template parameter format mismatch
  132015, // template paused
  132016, // template disabled
]);

const CLOUD_TEMPORARY = new Set([1, 2, 4, 80007, 130429, 131000, 131016, 131048, 131056, 133004]);

export function cloudErrorIsPermanent(code: number | null, httpStatus: number): boolean {
  if (code !== null && CLOUD_PERMANENT.has(code)) return true;
  if (code !== null && CLOUD_TEMPORARY.has(code)) return false;
  return httpStatusIsPermanent(httpStatus);
}

/** 5xx, 408 and 429 may pass; another 4xx (bad request, unauthorised) will be the same next time. */
export function httpStatusIsPermanent(status: number): boolean {
  return status >= 400 && status < 500 && ![408, 429].includes(status);
}

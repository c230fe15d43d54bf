import { type ChannelAdapter, numberField, ProviderError, providerFetch } from './channel';
import { httpStatusIsPermanent, WECHAT_NOT_FOLLOWING, wechatErrorIsPermanent } from './provider-errors';

/** WeChat official-account settings (WECHAT_*). */
export interface WechatConfig {
  baseUrl: string;
  appId: string;
  appSecret: string;
  templateId: string;
}

/**
 * Template messages of a WeChat official account: an access token from `/cgi-bin/token`
 * (cached until shortly before it expires), then `/cgi-bin/message/template/send`. The address is
 * the openid bound in the personal centre, only while the user follows the account and has not
 * turned its messages off (WeChat refuses template messages to non-followers anyway); otherwise
 * rows are marked "no recipient address". Errors are sorted by `errcode` (provider-errors.ts):
 * 43004 "require subscribe" gives the message up at once and tells the worker the user no longer
 * follows the account, which clears the profile's follow state.
 */
export function wechatChannel(config: WechatConfig | undefined, timeoutMs: number): ChannelAdapter {
  let token: { value: string; expiresAt: number } | null = null;
  const base = config?.baseUrl.replace(/\/+$/, '') ?? '';

  async function accessToken(): Promise<string> {
    if (token && token.expiresAt > Date.now()) return token.value;
    const query = new URLSearchParams({
      grant_type: 'client_credential',
      appid: config!.appId,
      secret: config!.appSecret,
    });
    const answer = await providerFetch(`${base}/cgi-bin/token?${query}`, { method: 'GET' }, timeoutMs);
    judgeHttp(answer);
    const parsed = (answer.json ?? {}) as { access_token?: string; expires_in?: number; errmsg?: string };
    if (!parsed.access_token) {
      const errcode = numberField(answer.json?.errcode);
      throw new ProviderError(
        `WeChat token${errcode !== null ? ` ${errcode}` : ''}: ${parsed.errmsg ?? 'no access_token'}`,
        errcode !== null && wechatErrorIsPermanent(errcode),
      );
    }
    token = {
      value: parsed.access_token,
      expiresAt: Date.now() + ((parsed.expires_in ?? 7200) - 300) * 1000,
    };
    return token.value;
  }

  return {
    channel: 'wechat',
    configured: Boolean(config),
    address: (r) => (r.wechatOpenId && r.wechatFollowed ? r.wechatOpenId : null),
    send: async (message) => {
      const url = `${base}/cgi-bin/message/template/send?access_token=${encodeURIComponent(await accessToken())}`;
      const answer = await providerFetch(
        url,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            touser: message.to,
            template_id: config!.templateId,
            client_msg_id: message.idempotencyKey,
            data: { first: { value: message.subject }, remark: { value: message.text } },
          }),
        },
        timeoutMs,
      );
      judgeHttp(answer);
      if (!answer.json) throw new ProviderError('WeChat answered with a body that is not JSON');
      const errcode = numberField(answer.json.errcode);
      const msgid = answer.json.msgid;
      if (errcode) {
        // 40001/42001: the token went stale; the retry fetches a new one.
        if ([40001, 42001].includes(errcode)) token = null;
        throw new ProviderError(
          `WeChat ${errcode}: ${String(answer.json.errmsg ?? '')}`,
          wechatErrorIsPermanent(errcode),
          errcode === WECHAT_NOT_FOLLOWING,
        );
      }
      if (msgid === undefined || msgid === null) throw new ProviderError('WeChat answered without a msgid');
      return String(msgid);
    },
  };
}

/** WeChat answers its errors with HTTP 200; another status is a gateway's, judged by the status. */
function judgeHttp(answer: { status: number; ok: boolean; body: string }) {
  if (!answer.ok)
    throw new ProviderError(
      `WeChat answered ${answer.status}: ${answer.body.slice(0, 200)}`,
      httpStatusIsPermanent(answer.status),
    );
}

import { type ChannelAdapter, ProviderError, providerFetch } from './channel';

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
 * rows are marked "no recipient address".
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
    const { body } = await providerFetch(`${base}/cgi-bin/token?${query}`, { method: 'GET' }, timeoutMs);
    const parsed = JSON.parse(body) as { access_token?: string; expires_in?: number; errmsg?: string };
    if (!parsed.access_token) throw new ProviderError(`WeChat token: ${parsed.errmsg ?? 'no access_token'}`);
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
      const { body } = await providerFetch(
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
      const parsed = JSON.parse(body) as { errcode?: number; errmsg?: string; msgid?: number };
      if (parsed.errcode) {
        // 40001/42001: the token went stale; the retry fetches a new one.
        if ([40001, 42001].includes(parsed.errcode)) token = null;
        throw new ProviderError(`WeChat ${parsed.errcode}: ${parsed.errmsg ?? ''}`);
      }
      return parsed.msgid === undefined ? null : String(parsed.msgid);
    },
  };
}

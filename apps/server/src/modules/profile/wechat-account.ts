/** WeChat official-account settings for binding users (WECHAT_APP_ID, WECHAT_APP_SECRET, WECHAT_*_URL). */
export interface WechatAccountConfig {
  /** API host: `/sns/oauth2/access_token`, `/cgi-bin/token`, `/cgi-bin/user/info`. */
  baseUrl: string;
  /** Authorisation page host: `/connect/oauth2/authorize`. */
  oauthUrl: string;
  appId: string;
  appSecret: string;
}

export class WechatAccountError extends Error {}

export interface WechatAccount {
  /** The page the user opens in WeChat to authorise; WeChat then returns to `redirectUri` with `code`. */
  authorizeUrl(redirectUri: string, state: string): string;
  /** Exchanges the one-time code for the user's openid at the official account. */
  openIdForCode(code: string): Promise<string>;
  /** Whether the openid follows the official account (`subscribe` of `/cgi-bin/user/info`). */
  follows(openId: string): Promise<boolean>;
}

const TIMEOUT_MS = 10_000;

async function getJson(url: string): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    throw new WechatAccountError(`WeChat unreachable: ${(error as Error).message}`);
  }
  const text = await response.text();
  if (!response.ok) throw new WechatAccountError(`WeChat HTTP ${response.status}`);
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new WechatAccountError('WeChat answered something that is not JSON');
  }
}

/**
 * The WeChat calls of the binding, as WeChat's own API names them, so that pointing
 * WECHAT_BASE_URL at a fake server in tests exercises the same requests production sends.
 */
export function wechatAccount(config: WechatAccountConfig): WechatAccount {
  const base = config.baseUrl.replace(/\/+$/, '');
  const oauthBase = config.oauthUrl.replace(/\/+$/, '');
  let token: { value: string; expiresAt: number } | null = null;

  async function accessToken(): Promise<string> {
    if (token && token.expiresAt > Date.now()) return token.value;
    const query = new URLSearchParams({
      grant_type: 'client_credential',
      appid: config.appId,
      secret: config.appSecret,
    });
    const body = await getJson(`${base}/cgi-bin/token?${query}`);
    if (typeof body.access_token !== 'string') {
      throw new WechatAccountError(`WeChat token: ${String(body.errmsg ?? 'no access_token')}`);
    }
    const expiresIn = typeof body.expires_in === 'number' ? body.expires_in : 7200;
    token = { value: body.access_token, expiresAt: Date.now() + (expiresIn - 300) * 1000 };
    return token.value;
  }

  return {
    authorizeUrl(redirectUri, state) {
      const query = new URLSearchParams({
        appid: config.appId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: 'snsapi_base',
        state,
      });
      return `${oauthBase}/connect/oauth2/authorize?${query}#wechat_redirect`;
    },
    async openIdForCode(code) {
      const query = new URLSearchParams({
        appid: config.appId,
        secret: config.appSecret,
        code,
        grant_type: 'authorization_code',
      });
      const body = await getJson(`${base}/sns/oauth2/access_token?${query}`);
      if (typeof body.openid !== 'string' || body.openid === '') {
        throw new WechatAccountError(
          `WeChat code exchange: ${String(body.errcode ?? '')} ${String(body.errmsg ?? '')}`,
        );
      }
      return body.openid;
    },
    async follows(openId) {
      const query = new URLSearchParams({ access_token: await accessToken(), openid: openId, lang: 'zh_CN' });
      const body = await getJson(`${base}/cgi-bin/user/info?${query}`);
      if (typeof body.errcode === 'number' && body.errcode !== 0) {
        // 40001/42001: the token went stale; the next call fetches a new one.
        if (body.errcode === 40001 || body.errcode === 42001) token = null;
        throw new WechatAccountError(`WeChat user info: ${body.errcode}`);
      }
      return body.subscribe === 1;
    },
  };
}

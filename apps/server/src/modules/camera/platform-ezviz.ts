import type { CameraPlatformAdapter, ListedCamera, PlatformContext } from './camera-platforms';
import { callPlatform, PlatformError } from './platform-http';

/** EZVIZ answers its own code in the body: "200" is success, "10002" a dead or expired token. */
const TOKEN_DEAD = new Set(['10002']);
/** A token is refreshed this long before EZVIZ says it expires (it lives 7 days). */
const TOKEN_MARGIN_MS = 10 * 60_000;
/** Pages of the device list; EZVIZ allows at most 50 per page. */
const PAGE_SIZE = 50;
const MAX_PAGES = 40;
/** Live addresses asked for one hour; the console asks again when one expires. */
const LIVE_SECONDS = 3600;
const MAX_JSON_BYTES = 1 << 20;
const MAX_PICTURE_BYTES = 5 << 20;

interface EzvizAnswer {
  code?: string | number;
  msg?: string;
  data?: unknown;
  page?: { total?: number };
}

async function post(ctx: PlatformContext, path: string, form: Record<string, string>): Promise<EzvizAnswer> {
  const answer = await callPlatform(ctx.guard, {
    method: 'POST',
    url: `${ctx.options.ezvizBaseUrl.replace(/\/+$/, '')}${path}`,
    form,
    timeoutMs: ctx.options.timeoutMs,
    maxBytes: MAX_JSON_BYTES,
  });
  let parsed: EzvizAnswer;
  try {
    parsed = JSON.parse(answer.body.toString('utf8')) as EzvizAnswer;
  } catch {
    throw new PlatformError(`EZVIZ answered HTTP ${answer.status} without JSON`);
  }
  const code = String(parsed.code ?? answer.status);
  if (code !== '200') throw new PlatformError(`EZVIZ ${code}: ${parsed.msg ?? 'refused'}`, code);
  return parsed;
}

/** The account's token: the saved one while it lives, else a new one from app key and secret. */
async function accessToken(ctx: PlatformContext, fresh = false): Promise<string> {
  const saved = fresh ? null : await ctx.tokens.read();
  if (saved && saved.expiresAt.getTime() - TOKEN_MARGIN_MS > ctx.now().getTime()) return saved.token;
  if (!ctx.credentials) throw new PlatformError('the account has no app key and secret');
  const answer = await post(ctx, '/api/lapp/token/get', {
    appKey: ctx.credentials.appKey,
    appSecret: ctx.credentials.appSecret,
  });
  const data = answer.data as { accessToken?: string; expireTime?: number } | undefined;
  if (!data?.accessToken) throw new PlatformError('EZVIZ gave no access token');
  const expiresAt = new Date(Number(data.expireTime) || ctx.now().getTime() + 6 * 86_400_000);
  await ctx.tokens.save(data.accessToken, expiresAt);
  return data.accessToken;
}

/** A call with the token; a token EZVIZ calls dead is dropped and the call made once more with a new one. */
async function withToken(
  ctx: PlatformContext,
  path: string,
  form: Record<string, string>,
): Promise<EzvizAnswer> {
  try {
    return await post(ctx, path, { accessToken: await accessToken(ctx), ...form });
  } catch (error) {
    if (!(error instanceof PlatformError) || !TOKEN_DEAD.has(error.platformCode)) throw error;
    await ctx.tokens.clear();
    return post(ctx, path, { accessToken: await accessToken(ctx, true), ...form });
  }
}

/** EZVIZ writes the live address's expiry as local "yyyy-MM-dd HH:mm:ss" (China time) or epoch ms. */
function expiryOf(raw: unknown, fallback: number): number {
  if (typeof raw === 'number') return raw;
  if (typeof raw === 'string' && /^\d+$/.test(raw)) return Number(raw);
  if (typeof raw === 'string') {
    const parsed = Date.parse(`${raw.replace(' ', 'T')}+08:00`);
    if (Number.isFinite(parsed)) return parsed;
  }
  return fallback;
}

/** The EZVIZ open platform (open.ys7.com "API for developers", lapp API). */
export const ezvizPlatform: CameraPlatformAdapter = {
  needsCredentials: true,

  async listCameras(ctx) {
    const listed: ListedCamera[] = [];
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const answer = await withToken(ctx, '/api/lapp/device/list', {
        pageStart: String(page),
        pageSize: String(PAGE_SIZE),
      });
      const rows = (answer.data ?? []) as {
        deviceSerial?: string;
        deviceName?: string;
        deviceType?: string;
        status?: number;
      }[];
      for (const row of rows)
        if (row.deviceSerial)
          listed.push({
            serial: row.deviceSerial,
            channel: 1,
            name: row.deviceName || row.deviceSerial,
            type: row.deviceType ?? '',
            online: row.status === 1,
          });
      const total = answer.page?.total ?? rows.length;
      if (rows.length < PAGE_SIZE || listed.length >= total) break;
    }
    return listed;
  },

  async liveAddress(ctx, camera) {
    const answer = await withToken(ctx, '/api/lapp/v2/live/address/get', {
      deviceSerial: camera.serial,
      channelNo: String(camera.channel),
      protocol: '2',
      expireTime: String(LIVE_SECONDS),
    });
    const data = answer.data as { url?: string; expireTime?: unknown } | undefined;
    if (!data?.url) throw new PlatformError('EZVIZ gave no live address');
    return {
      url: data.url,
      expireTime: expiryOf(data.expireTime, ctx.now().getTime() + LIVE_SECONDS * 1000),
    };
  },

  async snapshot(ctx, camera) {
    const answer = await withToken(ctx, '/api/lapp/device/capture', {
      deviceSerial: camera.serial,
      channelNo: String(camera.channel),
    });
    const picUrl = (answer.data as { picUrl?: string } | undefined)?.picUrl;
    if (!picUrl) throw new PlatformError('EZVIZ gave no picture');
    const picture = await callPlatform(ctx.guard, {
      method: 'GET',
      url: picUrl,
      timeoutMs: ctx.options.timeoutMs,
      maxBytes: MAX_PICTURE_BYTES,
    });
    if (picture.status !== 200) throw new PlatformError(`the picture answered HTTP ${picture.status}`);
    return picture.body;
  },
};

import { createHmac, timingSafeEqual } from 'node:crypto';
import { OPEN_API_CLOCK_SKEW_MS, openApiSigningText } from '@coldchain/contract';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Db, queryRows } from '../../db/client';
import type { MessageKey } from '../../i18n/messages';
import { AppError } from '../../lib/app-error';
import type { SecretBox } from '../../lib/secret-box';
import { companies } from '../companies/companies.table';
import { devices } from '../devices/devices.table';
import { openApiKeyDevices, openApiKeys, openApiNonces, openApiUsage } from './open-api.table';

/** The company service a key needs (menus.ts: the interface-docking directory's service). */
export const OPEN_API_SERVICE = 'service:openApi';

/** Who an open-API request acts as once its signature holds. */
export interface OpenCaller {
  keyId: number;
  companyId: number;
  /** The devices opened to the key, as a condition on `devices` (as org/access.ts `visibleDevices`). */
  scope: SQL;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function fail(code: MessageKey): never {
  // 401 with msgCode 311 for every signature fault (API.md "Open API"; lib/app-error.ts maps it).
  throw new AppError(code, {}, 401);
}

/** Constant-time comparison of two lowercase hex strings of any length. */
function sameHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Checks an open-API request as API.md says, in the order that tells an integrator the most
 * without telling a stranger anything: headers present, the key known and not revoked, the
 * timestamp within 5 minutes, the nonce's form, the HMAC-SHA256 signature, then the nonce unused
 * (remembered in the database, so a replay fails on every instance) and the key's rate. Each
 * fault is HTTP 401 with msgCode 311; over the rate, HTTP 429 with `Retry-After`.
 */
export async function verifyOpenRequest(
  db: Db,
  box: SecretBox,
  request: FastifyRequest,
  reply: FastifyReply,
  ratePerMinute: number,
  now = Date.now(),
): Promise<OpenCaller> {
  const appKey = header(request, 'x-app-key');
  const timestamp = header(request, 'x-timestamp');
  const nonce = header(request, 'x-nonce');
  const signature = header(request, 'x-signature');
  if (!appKey || !timestamp || !nonce || !signature) fail('OPEN_API_UNSIGNED');
  // The key, whether its company still has the service, and its calls of the last minute: one statement.
  const [key] = await queryRows<{
    id: number | string;
    company_id: number | string;
    secret_sealed: string;
    revoked: boolean;
    service_on: boolean;
    recent: number | string;
    oldest_ms: number | null;
  }>(
    db,
    sql`select k.id, k.company_id, k.secret_sealed, k.revoked_at is not null as revoked,
          ${OPEN_API_SERVICE} = any(c.services) as service_on,
          (select count(*) from ${openApiUsage} u where u.key_id = k.id and u.at > now() - interval '1 minute') as recent,
          (select (extract(epoch from min(u.at)) * 1000)::float8 from ${openApiUsage} u
            where u.key_id = k.id and u.at > now() - interval '1 minute') as oldest_ms
        from ${openApiKeys} k join ${companies} c on c.id = k.company_id
        where k.app_key = ${appKey}`,
  );
  if (!key || key.revoked) fail('OPEN_API_BAD_KEY');
  const keyId = Number(key.id);
  const companyId = Number(key.company_id);
  // From here on the call is the key's: it goes to the key's usage log, refused or not.
  request.openKeyId = keyId;
  if (!/^\d{1,16}$/.test(timestamp) || Math.abs(now - Number(timestamp)) > OPEN_API_CLOCK_SKEW_MS)
    fail('OPEN_API_BAD_TIMESTAMP');
  if (nonce.length < 8 || nonce.length > 64) fail('OPEN_API_BAD_NONCE');
  const body = request.method === 'GET' || request.method === 'HEAD' ? '' : (request.rawOpenBody ?? '');
  const expected = createHmac('sha256', box.open(key.secret_sealed))
    .update(openApiSigningText(request.method, request.url, timestamp, nonce, body))
    .digest('hex');
  if (!sameHex(expected, signature.toLowerCase())) fail('OPEN_API_BAD_SIGNATURE');
  const fresh = await db
    .insert(openApiNonces)
    .values({ keyId, nonce })
    .onConflictDoNothing()
    .returning({ keyId: openApiNonces.keyId });
  if (fresh.length === 0) fail('OPEN_API_NONCE_USED');
  if (!key.service_on) throw new AppError('OPEN_API_SERVICE_OFF');
  if (Number(key.recent) >= ratePerMinute) {
    const oldest = key.oldest_ms ?? now;
    const seconds = Math.max(1, Math.ceil((oldest + 60_000 - now) / 1000));
    reply.header('retry-after', String(seconds));
    throw new AppError('RATE_LIMITED', { seconds }, 429);
  }
  return {
    keyId,
    companyId,
    scope: and(
      eq(devices.companyId, companyId),
      sql`${devices.id} in (select d.device_id from ${openApiKeyDevices} d where d.key_id = ${keyId})`,
    )!,
  };
}

/**
 * Writes one call to the key's usage log, marks the key used, and forgets the key's nonces older
 * than ten minutes: one statement, after the answer has gone.
 */
export async function logOpenCall(
  db: Db,
  keyId: number,
  call: { method: string; path: string; httpStatus: number; msgCode: number; durationMs: number; ip: string },
): Promise<void> {
  await db.execute(sql`with logged as (
      insert into ${openApiUsage} (key_id, method, path, http_status, msg_code, duration_ms, ip)
      values (${keyId}, ${call.method}, ${call.path}, ${call.httpStatus}, ${call.msgCode}, ${call.durationMs}, ${call.ip})
    ), used as (
      update ${openApiKeys} set last_used_at = now() where id = ${keyId}
    )
    delete from ${openApiNonces} where key_id = ${keyId} and seen_at < now() - interval '10 minutes'`);
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set once an open-API request names a known key: its call is logged under it. */
    openKeyId?: number;
    /** The raw body of a signed open-API request that has one (the signature covers its bytes). */
    rawOpenBody?: string;
  }
}

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
  // The key and whether its company still has the service: one statement.
  const [key] = await queryRows<{
    id: number | string;
    company_id: number | string;
    secret_sealed: string;
    revoked: boolean;
    service_on: boolean;
  }>(
    db,
    sql`select k.id, k.company_id, k.secret_sealed, k.revoked_at is not null as revoked,
          ${OPEN_API_SERVICE} = any(c.services) as service_on
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
  const admission = await admissions.run(keyId, () =>
    admitCall(db, keyId, nonce, key.service_on, ratePerMinute, {
      method: request.method,
      path: request.url.slice(0, 500),
      ip: request.ip ?? '',
    }),
  );
  if (!admission.fresh) fail('OPEN_API_NONCE_USED');
  if (!key.service_on) throw new AppError('OPEN_API_SERVICE_OFF');
  if (admission.usage_id === null) {
    const oldest = admission.oldest_ms ?? now;
    const seconds = Math.max(1, Math.ceil((oldest + 60_000 - now) / 1000));
    reply.header('retry-after', String(seconds));
    throw new AppError('RATE_LIMITED', { seconds }, 429);
  }
  request.openUsageId = Number(admission.usage_id);
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
 * Admits a call under its key's rate, in one statement: the nonce remembered, the key's calls of
 * the last minute counted, and, if the nonce was new, the service on and the count under the
 * rate, the call's row written to the usage log at once (finished by `logOpenCall`). Counting and
 * writing in one statement is what keeps a burst to the rate: checked first and logged after the
 * answer (until 2026-11-29), concurrent calls each counted before the others' rows and all passed.
 * The embedded database runs one statement at a time; PostgreSQL runs sessions side by side, so
 * each instance admits one call of a key at a time (`admissions`).
 */
async function admitCall(
  db: Db,
  keyId: number,
  nonce: string,
  serviceOn: boolean,
  ratePerMinute: number,
  call: { method: string; path: string; ip: string },
) {
  const [admission] = await queryRows<{
    fresh: boolean;
    oldest_ms: number | null;
    usage_id: number | string | null;
  }>(
    db,
    sql`with fresh as (
          insert into ${openApiNonces} (key_id, nonce) values (${keyId}, ${nonce})
          on conflict do nothing returning key_id
        ), recent as (
          select count(*) as n, (extract(epoch from min(u.at)) * 1000)::float8 as oldest_ms
          from ${openApiUsage} u where u.key_id = ${keyId} and u.at > now() - interval '1 minute'
        ), admitted as (
          insert into ${openApiUsage} (key_id, method, path, http_status, msg_code, duration_ms, ip)
          select ${keyId}, ${call.method}, ${call.path}, 0, 0, 0, ${call.ip} from recent
          where exists (select 1 from fresh) and ${serviceOn} and recent.n < ${ratePerMinute}
          returning id
        )
        select exists (select 1 from fresh) as fresh, recent.oldest_ms,
          (select id from admitted) as usage_id
        from recent`,
  );
  return admission!;
}

/** One admission of a key at a time in this process; other keys' go side by side. */
class KeyedTurns {
  private readonly tails = new Map<number, Promise<unknown>>();

  run<T>(key: number, work: () => Promise<T>): Promise<T> {
    const turn = (this.tails.get(key) ?? Promise.resolve()).then(work, work);
    const tail = turn.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return turn;
  }
}

const admissions = new KeyedTurns();

/**
 * Finishes the call's row in the key's usage log (`usageId`, written when it was admitted) or
 * writes one for a call refused before (signature, nonce, rate), marks the key used, and forgets
 * the key's nonces older than ten minutes: one statement, as the answer leaves.
 */
export async function logOpenCall(
  db: Db,
  keyId: number,
  usageId: number | undefined,
  call: { method: string; path: string; httpStatus: number; msgCode: number; durationMs: number; ip: string },
): Promise<void> {
  const logged =
    usageId === undefined
      ? sql`insert into ${openApiUsage} (key_id, method, path, http_status, msg_code, duration_ms, ip)
            values (${keyId}, ${call.method}, ${call.path}, ${call.httpStatus}, ${call.msgCode}, ${call.durationMs}, ${call.ip})`
      : sql`update ${openApiUsage} set http_status = ${call.httpStatus}, msg_code = ${call.msgCode},
              duration_ms = ${call.durationMs}
            where id = ${usageId}`;
  await db.execute(sql`with logged as (${logged}), used as (
      update ${openApiKeys} set last_used_at = now() where id = ${keyId}
    )
    delete from ${openApiNonces} where key_id = ${keyId} and seen_at < now() - interval '10 minutes'`);
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set once an open-API request names a known key: its call is logged under it. */
    openKeyId?: number;
    /** The call's row in the usage log, written when the call was admitted under the rate. */
    openUsageId?: number;
    /** The raw body of a signed open-API request that has one (the signature covers its bytes). */
    rawOpenBody?: string;
  }
}

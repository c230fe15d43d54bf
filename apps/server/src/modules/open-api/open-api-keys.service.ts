import { randomBytes } from 'node:crypto';
import {
  type CreatedOpenApiKey,
  type CreateOpenApiKeyRequest,
  OPEN_API_MAX_KEYS,
  type OpenApiKeyView,
  type OpenApiUsageView,
  type Page,
  type PageOpenApiKeysRequest,
  type PageOpenApiUsageRequest,
  type SetOpenApiKeyDevicesRequest,
} from '@coldchain/contract';
import { and, count, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { decodeJsonRow, jsonRowOf } from '../../db/json-rows';
import { pageOf } from '../../db/page-query';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import type { SecretBox } from '../../lib/secret-box';
import type { Auth } from '../../plugins/auth';
import { type Actor, recordAudit } from '../audit/audit.service';
import { assertDevicesVisible } from '../org/access';
import { users } from '../users/users.table';
import { openApiKeyDevices, openApiKeys, openApiUsage } from './open-api.table';

type KeyRow = typeof openApiKeys.$inferSelect;

/** `/api/openApi/createKey`: a new key pair; the secret is answered this once and kept sealed. */
export async function createKey(
  db: Db,
  box: SecretBox,
  actor: Actor,
  input: CreateOpenApiKeyRequest,
): Promise<CreatedOpenApiKey> {
  // 96 bits of key id and 192 bits of secret, both URL-safe so they paste cleanly into any client.
  const appKey = `ak_${randomBytes(12).toString('hex')}`;
  const appSecret = randomBytes(24).toString('base64url');
  return db.transaction(async (tx) => {
    const [active] = await tx
      .select({ n: count() })
      .from(openApiKeys)
      .where(and(eq(openApiKeys.companyId, actor.companyId), isNull(openApiKeys.revokedAt)));
    if ((active?.n ?? 0) >= OPEN_API_MAX_KEYS) throw new AppError('OPEN_API_TOO_MANY_KEYS');
    const [row] = await tx
      .insert(openApiKeys)
      .values({
        companyId: actor.companyId,
        name: input.name,
        appKey,
        secretSealed: box.seal(appSecret),
        createdBy: actor.userId,
      })
      .returning({ id: openApiKeys.id });
    await recordAudit(tx, actor, {
      action: 'openApi.createKey',
      targetType: 'openApiKey',
      targetId: String(row!.id),
      after: { name: input.name, appKey },
    });
    return { id: idToWire(row!.id), appKey, appSecret };
  });
}

/** The company's key, or "does not exist" (another company's id included). */
async function keyOf(db: Pick<Db, 'select'>, companyId: number, wireId: string): Promise<KeyRow> {
  const id = idFromWire(wireId);
  const [row] = id
    ? await db
        .select()
        .from(openApiKeys)
        .where(and(eq(openApiKeys.id, id), eq(openApiKeys.companyId, companyId)))
    : [];
  if (!row) throw new AppError('OPEN_API_KEY_NOT_FOUND');
  return row;
}

/** `/api/openApi/revokeKey`: the key stops working at once, on every instance (looked up per request). */
export async function revokeKey(db: Db, actor: Actor, wireId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const key = await keyOf(tx, actor.companyId, wireId);
    if (key.revokedAt) return;
    await tx.update(openApiKeys).set({ revokedAt: new Date() }).where(eq(openApiKeys.id, key.id));
    await recordAudit(tx, actor, {
      action: 'openApi.revokeKey',
      targetType: 'openApiKey',
      targetId: String(key.id),
      before: { name: key.name, appKey: key.appKey },
    });
  });
}

/**
 * `/api/openApi/setDevices` (`OpenDevice`): the devices the key may read, replacing the list.
 * Only devices the caller sees can be opened, so a member cannot open what they cannot see.
 */
export async function setKeyDevices(
  db: Db,
  actor: Actor,
  auth: Auth,
  input: SetOpenApiKeyDevicesRequest,
): Promise<{ deviceIds: string[] }> {
  const wanted = [...new Set(input.deviceIds.map((id) => idFromWire(id)!))];
  return db.transaction(async (tx) => {
    const key = await keyOf(tx, actor.companyId, input.id);
    if (key.revokedAt) throw new AppError('OPEN_API_KEY_REVOKED');
    await assertDevicesVisible(tx, auth, wanted);
    const before = await tx
      .select({ id: openApiKeyDevices.deviceId })
      .from(openApiKeyDevices)
      .where(eq(openApiKeyDevices.keyId, key.id));
    await tx.delete(openApiKeyDevices).where(eq(openApiKeyDevices.keyId, key.id));
    if (wanted.length)
      await tx.insert(openApiKeyDevices).values(wanted.map((deviceId) => ({ keyId: key.id, deviceId })));
    await recordAudit(tx, actor, {
      action: 'openApi.setDevices',
      targetType: 'openApiKey',
      targetId: String(key.id),
      before: { deviceIds: before.map((d) => d.id).sort((a, b) => a - b) },
      after: { deviceIds: [...wanted].sort((a, b) => a - b) },
    });
    return { deviceIds: wanted.map(idToWire) };
  });
}

/** A key as one JSON value: its row, its creator, its devices and its calls of the last day. */
const keyRow = sql`json_build_object(
  'k', ${jsonRowOf(openApiKeys, 'open_api_keys')},
  'createdBy', (select u.name from ${users} u where u.id = ${openApiKeys.createdBy}),
  'deviceIds', coalesce((select json_agg(d.device_id order by d.device_id) from ${openApiKeyDevices} d where d.key_id = ${openApiKeys.id}), '[]'::json),
  'callsToday', (select count(*) from ${openApiUsage} u where u.key_id = ${openApiKeys.id} and u.at > now() - interval '1 day'))`;

interface RawKeyRow {
  k: Record<string, unknown>;
  createdBy: string | null;
  deviceIds: (number | string)[];
  callsToday: number | string;
}

/** `/api/openApi/pageKeys`: active keys first, newest first; one statement. The secret never. */
export async function pageKeys(
  db: Db,
  companyId: number,
  query: PageOpenApiKeysRequest,
): Promise<Page<OpenApiKeyView>> {
  return pageOf(
    db,
    {
      row: keyRow,
      from: openApiKeys,
      where: eq(openApiKeys.companyId, companyId),
      orderBy: sql`${openApiKeys.revokedAt} is not null, ${openApiKeys.createdAt} desc, ${openApiKeys.id} desc`,
    },
    query,
    (raw: RawKeyRow): OpenApiKeyView => {
      const k = decodeJsonRow(openApiKeys, raw.k);
      return {
        id: idToWire(k.id),
        name: k.name,
        appKey: k.appKey,
        state: k.revokedAt ? 'revoked' : 'active',
        deviceIds: raw.deviceIds.map((id) => idToWire(Number(id))),
        createdBy: raw.createdBy ?? '',
        createTime: k.createdAt.getTime(),
        lastUsedAt: k.lastUsedAt?.getTime() ?? null,
        revokedAt: k.revokedAt?.getTime() ?? null,
        callsToday: Number(raw.callsToday),
      };
    },
  );
}

/** `/api/openApi/pageUsage`: a key's calls, newest first; one statement after the key's check. */
export async function pageUsage(
  db: Db,
  companyId: number,
  query: PageOpenApiUsageRequest,
): Promise<Page<OpenApiUsageView>> {
  const key = await keyOf(db, companyId, query.id);
  return pageOf(
    db,
    {
      row: jsonRowOf(openApiUsage, 'open_api_usage'),
      from: openApiUsage,
      where: eq(openApiUsage.keyId, key.id),
      orderBy: sql`${openApiUsage.at} desc, ${openApiUsage.id} desc`,
    },
    query,
    (raw: Record<string, unknown>): OpenApiUsageView => {
      const u = decodeJsonRow(openApiUsage, raw);
      return {
        id: idToWire(u.id),
        time: u.at.getTime(),
        method: u.method,
        path: u.path,
        httpStatus: u.httpStatus,
        msgCode: u.msgCode,
        durationMs: u.durationMs,
        ip: u.ip,
      };
    },
  );
}

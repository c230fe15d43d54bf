import type {
  ImportCamerasResult,
  Page,
  PagePlatformAccountsRequest,
  PlatformAccountView,
  SavePlatformAccountRequest,
} from '@coldchain/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { pageOf, whenGiven } from '../../db/page-query';
import { AppError } from '../../lib/app-error';
import { idToWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { type Actor, recordAudit } from '../audit/audit.service';
import { cameras, cameraPlatformAccounts as t } from './camera.table';
import { type PlatformAccountRow, platformAccountOf } from './camera-access';
import { askPlatform, type CameraDeps } from './camera-context';
import { platformAdapter } from './camera-platforms';

/** `ab****yz`: enough to tell two keys apart, too little to use one. */
export function maskKey(key: string): string {
  if (key.length <= 4) return '****';
  return `${key.slice(0, 2)}****${key.slice(-2)}`;
}

/** What the operation log keeps of an account: never a credential, only whether one changed. */
function audited(row: Partial<PlatformAccountRow>, credentialsChanged = false) {
  return { name: row.name, platform: row.platform, appKey: row.appKeyMasked, credentialsChanged };
}

/** `/api/camera/savePlatformAccount`: new credentials are sealed; omitted ones keep what was saved. */
export async function savePlatformAccount(
  deps: CameraDeps,
  actor: Actor,
  input: SavePlatformAccountRequest,
): Promise<{ id: string }> {
  const { box } = deps;
  const needsCredentials = platformAdapter(input.platform).needsCredentials;
  const credentials =
    needsCredentials && input.appKey && input.appSecret
      ? {
          appKeySealed: box.seal(input.appKey),
          appKeyMasked: maskKey(input.appKey),
          appSecretSealed: box.seal(input.appSecret),
          // A new key or secret makes the token of the old one worthless.
          tokenSealed: null,
          tokenExpiresAt: null,
        }
      : null;
  if (needsCredentials && (input.appKey || input.appSecret) && !credentials)
    throw new AppError('CAMERA_CREDENTIALS_REQUIRED');
  return deps.db.transaction(async (tx) => {
    if (input.id) {
      const before = await platformAccountOf(tx, actor.companyId, input.id, true);
      if (before.platform !== input.platform) throw new AppError('CAMERA_PLATFORM_FIXED');
      const [after] = await tx
        .update(t)
        .set({ name: input.name, ...(credentials ?? {}), updatedAt: new Date() })
        .where(eq(t.id, before.id))
        .returning();
      await recordAudit(tx, actor, {
        action: 'cameraAccount.edit',
        targetType: 'cameraAccount',
        targetId: String(before.id),
        before: audited(before),
        after: audited(after!, credentials !== null),
      });
      return { id: idToWire(before.id) };
    }
    if (needsCredentials && !credentials) throw new AppError('CAMERA_CREDENTIALS_REQUIRED');
    const [row] = await tx
      .insert(t)
      .values({
        companyId: actor.companyId,
        name: input.name,
        platform: input.platform,
        ...(credentials ?? {}),
        createdBy: actor.userId,
      })
      .returning();
    await recordAudit(tx, actor, {
      action: 'cameraAccount.add',
      targetType: 'cameraAccount',
      targetId: String(row!.id),
      after: audited(row!, credentials !== null),
    });
    return { id: idToWire(row!.id) };
  });
}

/** `/api/camera/deletePlatformAccount`: refused while cameras use it. */
export async function deletePlatformAccount(db: Db, actor: Actor, wireId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await platformAccountOf(tx, actor.companyId, wireId, true);
    const [used] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(cameras)
      .where(eq(cameras.platformAccountId, row.id));
    if ((used?.count ?? 0) > 0) throw new AppError('CAMERA_ACCOUNT_IN_USE', { count: used!.count });
    await tx.delete(t).where(eq(t.id, row.id));
    await recordAudit(tx, actor, {
      action: 'cameraAccount.delete',
      targetType: 'cameraAccount',
      targetId: String(row.id),
      before: audited(row),
    });
  });
}

interface RawAccount {
  id: number;
  name: string;
  platform: PlatformAccountView['platform'];
  appKeyMasked: string;
  hasSecret: boolean;
  cameraCount: number;
  createdAt: string;
}

const likeOf = (text: string | undefined) => (text ? text.replace(/[\\%_]/g, (c) => `\\${c}`) : null);

/** `/api/camera/pagePlatformAccounts`: one statement; the credentials are not even read. */
export async function pagePlatformAccounts(
  db: Db,
  companyId: number,
  query: PagePlatformAccountsRequest,
): Promise<Page<PlatformAccountView>> {
  const keyword = likeOf(query.keyword);
  const row = sql`json_build_object('id', ${t.id}, 'name', ${t.name}, 'platform', ${t.platform},
    'appKeyMasked', ${t.appKeyMasked}, 'hasSecret', ${t.appSecretSealed} is not null,
    'cameraCount', (select count(*)::int from ${cameras} c where c.platform_account_id = ${t.id}),
    'createdAt', ${t.createdAt})`;
  const where = and(
    eq(t.companyId, companyId),
    whenGiven(keyword, 'text', (v) => sql`${t.name} ilike '%' || ${v} || '%'`),
  );
  return pageOf(db, { row, from: t, where, orderBy: sql`${t.name}, ${t.id}` }, query, (raw: RawAccount) => ({
    id: idToWire(raw.id),
    name: raw.name,
    platform: raw.platform,
    appKeyMasked: raw.appKeyMasked,
    hasSecret: raw.hasSecret,
    cameraCount: raw.cameraCount,
    createTime: new Date(raw.createdAt).getTime(),
  }));
}

/**
 * `/api/camera/importCameras`: the account's camera list from its platform. Cameras it does not
 * have yet are added (to the caller's department), known ones get their online state.
 */
export async function importCameras(
  deps: CameraDeps,
  actor: Actor,
  auth: Auth,
  wireId: string,
): Promise<ImportCamerasResult> {
  const account = await platformAccountOf(deps.db, actor.companyId, wireId);
  const listed = await askPlatform(deps, account, (ctx, adapter) => adapter.listCameras(ctx));
  const now = deps.now();
  let added = 0;
  let updated = 0;
  await deps.db.transaction(async (tx) => {
    for (const camera of listed) {
      const [known] = await tx
        .update(cameras)
        .set({ online: camera.online, onlineCheckedAt: now })
        .where(
          and(
            eq(cameras.platformAccountId, account.id),
            eq(cameras.serial, camera.serial),
            eq(cameras.channel, camera.channel),
          ),
        )
        .returning({ id: cameras.id });
      if (known) {
        updated += 1;
        continue;
      }
      await tx.insert(cameras).values({
        companyId: actor.companyId,
        departmentId: auth.departmentId,
        platformAccountId: account.id,
        name: camera.name.length >= 2 ? camera.name.slice(0, 100) : camera.serial,
        serial: camera.serial,
        channel: camera.channel,
        type: camera.type.slice(0, 50),
        online: camera.online,
        onlineCheckedAt: now,
        createdBy: actor.userId,
      });
      added += 1;
    }
    await recordAudit(tx, actor, {
      action: 'camera.import',
      targetType: 'cameraAccount',
      targetId: String(account.id),
      after: { listed: listed.length, added, updated },
    });
  });
  return { listed: listed.length, added, updated };
}

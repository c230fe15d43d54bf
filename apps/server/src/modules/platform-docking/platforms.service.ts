import {
  type DecideDockingRequest,
  type DockingPlatformView,
  type DockingRequestView,
  DockingState,
  type Page,
  type PageDockingRequestsRequest,
  PushEvents,
  PushUrlState,
  type SaveDockingPlatformRequest,
} from '@coldchain/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client';
import { pageOf } from '../../db/page-query';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import type { SecretBox } from '../../lib/secret-box';
import { recordAudit } from '../audit/audit.service';
import { companies } from '../companies/companies.table';
import { devices } from '../devices/devices.table';
import { PLATFORM_CHAIN } from '../operator/operators.service';
import { pushBindings, pushUrls } from '../push-docking/push-docking.table';
import type { PushSender } from '../push-docking/push-sender';
import { dockingView, dockingViewSql } from './docking-views';
import { clearDocking } from './dockings.service';
import { dockingPlatforms, platformDockings } from './platform-docking.table';

/** Who decides, for the audit trail of the company the decision touches. */
export interface OperatorActor {
  userId: number;
  ip: string;
}

/**
 * `/api/operator/platform/savePlatform`: a platform the supplier offers. Its endpoint passes the
 * same reachability rules as a push address; a new secret reaches every enabled docking at once.
 */
export async function saveDockingPlatform(
  db: Db,
  box: SecretBox,
  sender: PushSender,
  operator: OperatorActor,
  input: SaveDockingPlatformRequest,
): Promise<{ id: string }> {
  const id = input.id ? idFromWire(input.id) : null;
  if (input.id && !id) throw new AppError('DOCKING_PLATFORM_NOT_FOUND');
  if (await sender.refusal(input.endpoint)) throw new AppError('PUSH_URL_UNREACHABLE');
  if (!id && !input.secret) throw new AppError('DOCKING_SECRET_REQUIRED');
  const sealed = input.secret ? box.seal(input.secret) : undefined;
  return db.transaction(async (tx) => {
    const fields = {
      name: input.name,
      protocol: input.protocol,
      endpoint: input.endpoint,
      keyId: input.keyId,
      offered: input.offered,
      ...(sealed ? { secretSealed: sealed } : {}),
    };
    if (!id) {
      const [row] = await tx
        .insert(dockingPlatforms)
        .values({ ...fields, secretSealed: sealed! })
        .returning({ id: dockingPlatforms.id });
      await auditPlatform(tx, operator, row!.id, null, fields);
      return { id: idToWire(row!.id) };
    }
    const [before] = await tx
      .select()
      .from(dockingPlatforms)
      .where(eq(dockingPlatforms.id, id))
      .for('update');
    if (!before) throw new AppError('DOCKING_PLATFORM_NOT_FOUND');
    const [row] = await tx
      .update(dockingPlatforms)
      .set(fields)
      .where(eq(dockingPlatforms.id, id))
      .returning();
    if (!row) throw new AppError('DOCKING_PLATFORM_NOT_FOUND');
    await auditPlatform(tx, operator, row.id, before, fields);
    // The queue addresses of its enabled dockings follow the platform.
    await tx.execute(sql`update push_urls u set url = ${row.endpoint}, adapter = ${row.protocol},
        key_id = ${row.keyId}, secret_sealed = ${row.secretSealed}, name = ${row.name}
      from platform_dockings d where d.platform_id = ${row.id} and d.push_url_id = u.id and u.docking_owned`);
    return { id: idToWire(row.id) };
  });
}

/** A platform's change in the platform chain; the secret is recorded as changed, never its value. */
async function auditPlatform(
  tx: Queryable,
  operator: OperatorActor,
  id: number,
  before: typeof dockingPlatforms.$inferSelect | null,
  after: { name: string; endpoint: string; keyId: string; offered: boolean; secretSealed?: string },
) {
  const shown = (p: { name: string; endpoint: string; keyId: string; offered: boolean }) => ({
    name: p.name,
    endpoint: p.endpoint,
    keyId: p.keyId,
    offered: p.offered,
  });
  await recordAudit(
    tx,
    { companyId: PLATFORM_CHAIN, ...operator },
    {
      action: 'operator.savePlatform',
      targetType: 'dockingPlatform',
      targetId: String(id),
      before: before ? shown(before) : undefined,
      after: { ...shown(after), secretChanged: after.secretSealed !== undefined },
    },
  );
}

/** `/api/operator/platform/pagePlatforms`: every platform, secrets never answered. */
export async function pageDockingPlatforms(
  db: Db,
  query: { pageNum: number; pageSize: number },
): Promise<Page<DockingPlatformView>> {
  return pageOf(
    db,
    {
      row: sql`json_build_object('id', ${dockingPlatforms.id}, 'name', ${dockingPlatforms.name},
        'protocol', ${dockingPlatforms.protocol}, 'endpoint', ${dockingPlatforms.endpoint},
        'keyId', ${dockingPlatforms.keyId}, 'offered', ${dockingPlatforms.offered},
        'createdAt', ${dockingPlatforms.createdAt},
        'active', (select count(*) from platform_dockings d where d.platform_id = ${dockingPlatforms.id} and d.state <> ${DockingState.Stopped}))`,
      from: dockingPlatforms,
      where: sql`true`,
      orderBy: sql`${dockingPlatforms.id} desc`,
    },
    query,
    (raw: Record<string, unknown>): DockingPlatformView => ({
      id: idToWire(Number(raw.id)),
      name: String(raw.name),
      protocol: raw.protocol as DockingPlatformView['protocol'],
      endpoint: String(raw.endpoint),
      keyId: String(raw.keyId),
      hasSecret: true,
      offered: raw.offered === true,
      activeDockings: Number(raw.active),
      createTime: new Date(raw.createdAt as string).getTime(),
    }),
  );
}

/** `/api/operator/platform/pageRequests`: every company's dockings, pending first, then newest. */
export async function pageDockingRequests(
  db: Db,
  query: PageDockingRequestsRequest,
): Promise<Page<DockingRequestView>> {
  return pageOf(
    db,
    {
      row: sql`json_build_object('view', (select ${dockingViewSql} from platform_dockings d where d.id = ${platformDockings.id}),
        'companyId', ${platformDockings.companyId},
        'companyName', (select c.name from ${companies} c where c.id = ${platformDockings.companyId}))`,
      from: platformDockings,
      where: query.state ? eq(platformDockings.state, query.state) : sql`true`,
      orderBy: sql`(${platformDockings.state} = ${DockingState.Pending}) desc, ${platformDockings.id} desc`,
    },
    query,
    (raw: Record<string, unknown>): DockingRequestView => ({
      ...dockingView(raw.view),
      companyId: idToWire(Number(raw.companyId)),
      companyName: String(raw.companyName ?? ''),
    }),
  );
}

/**
 * `/api/operator/platform/decideRequest`: enabling makes the docking's queue address (owned by
 * the docking, bound to its monitors that still exist) so readings and alarms start to flow;
 * refusing stops it with the reason, which the company reads on its platform list.
 */
export async function decideDockingRequest(
  db: Db,
  operator: OperatorActor,
  input: DecideDockingRequest,
): Promise<void> {
  const id = idFromWire(input.id);
  await db.transaction(async (tx) => {
    const [docking] = id
      ? await tx.select().from(platformDockings).where(eq(platformDockings.id, id)).for('update')
      : [];
    if (!docking) throw new AppError('DOCKING_NOT_FOUND');
    if (docking.state !== DockingState.Pending) throw new AppError('DOCKING_NOT_PENDING');
    const actor = { companyId: docking.companyId, userId: operator.userId, ip: operator.ip };
    if (!input.enable) {
      await clearDocking(tx, { ...docking, decidedAt: new Date() }, input.reason);
      await recordAudit(tx, actor, {
        action: 'platformDock.refuse',
        targetType: 'platformDocking',
        targetId: String(docking.id),
        before: { state: docking.state },
        after: { state: DockingState.Stopped },
        reason: input.reason,
      });
      return;
    }
    const [platform] = await tx
      .select()
      .from(dockingPlatforms)
      .where(eq(dockingPlatforms.id, docking.platformId));
    const [url] = await tx
      .insert(pushUrls)
      .values({
        companyId: docking.companyId,
        name: platform!.name,
        url: platform!.endpoint,
        events: [...PushEvents],
        state: PushUrlState.Enabled,
        secretSealed: platform!.secretSealed,
        createdBy: docking.appliedBy,
        dockingOwned: true,
        adapter: platform!.protocol,
        keyId: platform!.keyId,
      })
      .returning({ id: pushUrls.id });
    const still = docking.deviceIds.length
      ? await tx
          .select({ id: devices.id })
          .from(devices)
          .where(and(eq(devices.companyId, docking.companyId), inArray(devices.id, docking.deviceIds)))
      : [];
    if (still.length)
      await tx.insert(pushBindings).values(still.map((d) => ({ urlId: url!.id, deviceId: d.id })));
    await tx
      .update(platformDockings)
      .set({
        state: DockingState.Enabled,
        pushUrlId: url!.id,
        deviceIds: still.map((d) => d.id).sort((a, b) => a - b),
        decidedAt: new Date(),
        reason: '',
      })
      .where(eq(platformDockings.id, docking.id));
    await recordAudit(tx, actor, {
      action: 'platformDock.enable',
      targetType: 'platformDocking',
      targetId: String(docking.id),
      before: { state: docking.state },
      after: { state: DockingState.Enabled, deviceIds: still.map((d) => d.id) },
    });
  });
}

import {
  type ApplyDockingRequest,
  type CompanyDockingView,
  type CompanyPlatformView,
  DockingState,
  type Page,
  type PushDeliveryView,
  type SetDockingDevicesRequest,
} from '@coldchain/contract';
import { and, eq, ne, sql } from 'drizzle-orm';
import { type Db, type Queryable, queryRows } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { type Actor, recordAudit } from '../audit/audit.service';
import { assertDevicesVisible } from '../org/access';
import { pushBindings } from '../push-docking/push-docking.table';
import { pageDeliveriesOf } from '../push-docking/push-views.service';
import { dockingView, dockingViewSql, emptyPage } from './docking-views';
import { dockingPlatforms, platformDockings } from './platform-docking.table';

type DockingRow = typeof platformDockings.$inferSelect;

/** The company's docking, or "does not exist" (another company's id included). */
export async function dockingOf(db: Queryable, companyId: number, wireId: string): Promise<DockingRow> {
  const id = idFromWire(wireId);
  const [row] = id
    ? await db
        .select()
        .from(platformDockings)
        .where(and(eq(platformDockings.id, id), eq(platformDockings.companyId, companyId)))
    : [];
  if (!row) throw new AppError('DOCKING_NOT_FOUND');
  return row;
}

/** `/api/platformDock/pagePlatforms`: the platforms offered, each with the company's latest docking. */
export async function pageCompanyPlatforms(db: Db, companyId: number): Promise<CompanyPlatformView[]> {
  const rows = await queryRows<{ id: number | string; name: string; protocol: string; docking: unknown }>(
    db,
    sql`select p.id, p.name, p.protocol,
          (select ${dockingViewSql} from ${platformDockings} d
             where d.platform_id = p.id and d.company_id = ${companyId}
             order by (d.state <> ${DockingState.Stopped}) desc, d.id desc limit 1) as docking
        from ${dockingPlatforms} p
        where p.offered or exists (select 1 from ${platformDockings} d where d.platform_id = p.id
                                   and d.company_id = ${companyId} and d.state <> ${DockingState.Stopped})
        order by p.name, p.id`,
  );
  return rows.map((row) => ({
    id: idToWire(Number(row.id)),
    name: row.name,
    protocol: row.protocol as CompanyPlatformView['protocol'],
    docking: row.docking ? dockingView(row.docking) : null,
  }));
}

/** `/api/platformDock/dockingDetail`. */
export async function companyDockingDetail(
  db: Db,
  companyId: number,
  wireId: string,
): Promise<CompanyDockingView> {
  const docking = await dockingOf(db, companyId, wireId);
  const [row] = await queryRows<{ view: unknown }>(
    db,
    sql`select ${dockingViewSql} as view from ${platformDockings} d where d.id = ${docking.id}`,
  );
  return dockingView(row!.view);
}

/** Device ids from the wire, once each. */
function wantedDevices(wire: string[]): number[] {
  return [...new Set(wire.map((id) => idFromWire(id)!))].sort((a, b) => a - b);
}

/**
 * `/api/platformDock/apply`: asks to dock monitors the caller sees to an offered platform. It
 * stays pending, sending nothing, until the supplier enables it. A live docking to the same
 * platform is changed with setDevices instead (one per company and platform).
 */
export async function applyDocking(
  db: Db,
  actor: Actor,
  auth: Auth,
  input: ApplyDockingRequest,
): Promise<{ id: string }> {
  const platformId = idFromWire(input.platformId);
  const deviceIds = wantedDevices(input.deviceIds);
  return db.transaction(async (tx) => {
    const [platform] = platformId
      ? await tx.select().from(dockingPlatforms).where(eq(dockingPlatforms.id, platformId))
      : [];
    if (!platform?.offered) throw new AppError('DOCKING_PLATFORM_NOT_FOUND');
    await assertDevicesVisible(tx, auth, deviceIds);
    const [live] = await tx
      .select({ id: platformDockings.id })
      .from(platformDockings)
      .where(
        and(
          eq(platformDockings.companyId, actor.companyId),
          eq(platformDockings.platformId, platform.id),
          ne(platformDockings.state, DockingState.Stopped),
        ),
      )
      .for('update');
    if (live) throw new AppError('DOCKING_EXISTS');
    const [row] = await tx
      .insert(platformDockings)
      .values({ companyId: actor.companyId, platformId: platform.id, deviceIds, appliedBy: actor.userId })
      .returning({ id: platformDockings.id });
    await recordAudit(tx, actor, {
      action: 'platformDock.apply',
      targetType: 'platformDocking',
      targetId: String(row!.id),
      after: { name: platform.name, deviceIds, state: DockingState.Pending },
    });
    return { id: idToWire(row!.id) };
  });
}

/** `/api/platformDock/setDevices`: replaces the monitors of a pending or enabled docking. */
export async function setDockingDevices(
  db: Db,
  actor: Actor,
  auth: Auth,
  input: SetDockingDevicesRequest,
): Promise<{ deviceIds: string[] }> {
  const deviceIds = wantedDevices(input.deviceIds);
  return db.transaction(async (tx) => {
    const docking = await dockingOf(tx, actor.companyId, input.id);
    if (docking.state === DockingState.Stopped) throw new AppError('DOCKING_STOPPED');
    await assertDevicesVisible(tx, auth, deviceIds);
    await tx.update(platformDockings).set({ deviceIds }).where(eq(platformDockings.id, docking.id));
    if (docking.pushUrlId) {
      await tx.delete(pushBindings).where(eq(pushBindings.urlId, docking.pushUrlId));
      await tx
        .insert(pushBindings)
        .values(deviceIds.map((deviceId) => ({ urlId: docking.pushUrlId!, deviceId })));
    }
    await recordAudit(tx, actor, {
      action: 'platformDock.setDevices',
      targetType: 'platformDocking',
      targetId: String(docking.id),
      before: { deviceIds: docking.deviceIds },
      after: { deviceIds },
    });
    return { deviceIds: deviceIds.map(idToWire) };
  });
}

/**
 * Ends a docking and clears its data (the spec: "stopping clears the docking data"): the queue
 * address with its undelivered deliveries and bindings goes, and the monitor list empties. The
 * delivered history goes with the address: what was sent is the platform's record now.
 */
export async function clearDocking(tx: Queryable, docking: DockingRow, reason = ''): Promise<void> {
  await tx
    .update(platformDockings)
    .set({
      state: DockingState.Stopped,
      deviceIds: [],
      pushUrlId: null,
      decidedAt: docking.decidedAt ?? new Date(),
      reason,
    })
    .where(eq(platformDockings.id, docking.id));
  if (docking.pushUrlId)
    await tx.execute(sql`delete from push_urls where id = ${docking.pushUrlId} and docking_owned`);
}

/** `/api/platformDock/stop`. */
export async function stopDocking(db: Db, actor: Actor, wireId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const docking = await dockingOf(tx, actor.companyId, wireId);
    if (docking.state === DockingState.Stopped) return;
    await clearDocking(tx, docking);
    await recordAudit(tx, actor, {
      action: 'platformDock.stop',
      targetType: 'platformDocking',
      targetId: String(docking.id),
      before: { state: docking.state, deviceIds: docking.deviceIds },
      after: { state: DockingState.Stopped },
    });
  });
}

/** `/api/platformDock/pageDeliveries`: what went to the platform (nothing before it was enabled). */
export async function pageDockingDeliveries(
  db: Db,
  companyId: number,
  query: { id: string; pageNum: number; pageSize: number },
): Promise<Page<PushDeliveryView>> {
  const docking = await dockingOf(db, companyId, query.id);
  if (!docking.pushUrlId) return emptyPage(query);
  return pageDeliveriesOf(db, docking.pushUrlId, query);
}

import {
  type Page,
  type PageSupportDevicesRequest,
  SUPPORT_ACCESS_MAX_DAYS,
  type SupportAccessView,
  type SupportDeviceView,
} from '@coldchain/contract';
import { eq, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client';
import { pageOf } from '../../db/page-query';
import { AppError } from '../../lib/app-error';
import { idToWire } from '../../lib/ids';
import { type Actor, recordAudit } from '../audit/audit.service';
import { companies } from '../companies/companies.table';
import { devices, sensors } from '../devices/devices.table';
import { companyIdOf, type OperatorActor } from './operator-companies.service';

/**
 * Support access (issue 17 item 6): operators never see a company's readings, unless the company's
 * administrator lets them for a limited time. While the window is open an operator may list the
 * company's devices with their latest values, read-only; nothing else of the company opens.
 */
export async function supportAccessOf(db: Queryable, companyId: number): Promise<SupportAccessView> {
  const [row] = await db
    .select({ until: companies.supportAccessUntil })
    .from(companies)
    .where(eq(companies.id, companyId));
  const until = row?.until?.getTime() ?? null;
  return { until: until !== null && until > Date.now() ? until : null };
}

/** Opens (until `until`, at most SUPPORT_ACCESS_MAX_DAYS ahead) or closes (null) the window. Audited. */
export async function setSupportAccess(
  db: Db,
  actor: Actor,
  isAdmin: boolean,
  until: number | null,
  now = Date.now(),
): Promise<SupportAccessView> {
  if (!isAdmin) throw new AppError('SUPPORT_ACCESS_ADMIN_ONLY');
  if (until !== null && (until <= now || until > now + SUPPORT_ACCESS_MAX_DAYS * 86_400_000)) {
    throw new AppError('SUPPORT_ACCESS_WINDOW', { days: SUPPORT_ACCESS_MAX_DAYS });
  }
  await db.transaction(async (tx) => {
    const [before] = await tx
      .select({ until: companies.supportAccessUntil })
      .from(companies)
      .where(eq(companies.id, actor.companyId))
      .for('update');
    await tx
      .update(companies)
      .set({ supportAccessUntil: until === null ? null : new Date(until) })
      .where(eq(companies.id, actor.companyId));
    await recordAudit(tx, actor, {
      action: until === null ? 'company.revokeSupportAccess' : 'company.grantSupportAccess',
      targetType: 'company',
      targetId: actor.companyId,
      before: { until: before?.until?.toISOString() ?? null },
      after: { until: until === null ? null : new Date(until).toISOString() },
    });
  });
  return { until };
}

interface DeviceRaw {
  id: number;
  serial: string;
  name: string;
  model: string;
  state: number;
  lastSeenMs: number | null;
  sensors: SupportDeviceView['sensors'] | null;
}

/**
 * The company's devices for an operator, only while its support window is open (read on every
 * call, so a window that closes is closed for the next call). Each look is written to the
 * company's operation log: the company sees when its supplier looked.
 */
export async function pageSupportDevices(
  db: Db,
  actor: OperatorActor,
  query: PageSupportDevicesRequest,
): Promise<Page<SupportDeviceView>> {
  const companyId = companyIdOf(query.id);
  const { until } = await supportAccessOf(db, companyId);
  if (until === null) throw new AppError('SUPPORT_ACCESS_NOT_GRANTED');
  const page = await pageOf(
    db,
    {
      row: sql`json_build_object('id', ${devices.id}, 'serial', ${devices.serial}, 'name', ${devices.name},
        'model', ${devices.model}, 'state', ${devices.state},
        'lastSeenMs', (extract(epoch from ${devices.lastSeenAt}) * 1000)::float8,
        'sensors', (select json_agg(json_build_object('channel', s.channel, 'type', s.type, 'unit', s.unit,
            'value', s.value, 'updateTime', (extract(epoch from s.update_time) * 1000)::float8) order by s.channel)
          from ${sensors} s where s.device_id = ${devices.id}))`,
      from: devices,
      where: sql`${devices.companyId} = ${companyId}::bigint`,
      orderBy: sql`${devices.id}`,
    },
    query,
    (raw: DeviceRaw) => ({
      id: idToWire(Number(raw.id)),
      serial: raw.serial,
      name: raw.name,
      model: raw.model,
      state: raw.state,
      lastSeenTime: raw.lastSeenMs === null ? null : Math.round(raw.lastSeenMs),
      sensors: (raw.sensors ?? []).map((s) => ({
        ...s,
        updateTime: s.updateTime === null ? null : Math.round(s.updateTime),
      })),
    }),
  );
  await db.transaction((tx) =>
    recordAudit(
      tx,
      { companyId, ...actor },
      { action: 'operator.viewDevices', targetType: 'company', targetId: companyId, after: { until } },
    ),
  );
  return page;
}

import type {
  AlarmDetailView,
  AlarmRecordView,
  AlarmType,
  Page,
  PageAlarmsRequest,
  ResolveAlarmRequest,
} from '@coldchain/contract';
import { ResolveState } from '@coldchain/contract';
import { and, count, desc, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Queryable } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import { type Actor, recordAudit } from '../audit/audit.service';
import { devices, sensors } from '../devices/devices.table';
import { deviceIdsWhere } from '../org/access';
import { requireSignature } from '../signature/signature.service';
import { users } from '../users/users.table';
import { clearingOf } from './alarm-clearing';
import { alarmRecords } from './alarms.table';

type RecordRow = typeof alarmRecords.$inferSelect;

interface Joined {
  record: RecordRow;
  deviceSerial: string;
  deviceName: string;
  channelName: string | null;
  /** The resolver's display name, so the list and detail need no member lookup. */
  resolverName: string | null;
  /** Who ended it by disabling, deleting or editing its rule (absent where not joined, as in the export). */
  endedByName?: string | null;
}

/** Users joined as the resolver of an alarm, and as the person whose rule change ended it. */
const resolvers = alias(users, 'resolvers');
const enders = alias(users, 'enders');

export function presentAlarm({
  record: r,
  deviceSerial,
  deviceName,
  channelName,
  resolverName,
  endedByName,
}: Joined): AlarmRecordView {
  return {
    id: idToWire(r.id),
    deviceId: idToWire(r.deviceId),
    deviceSerial,
    deviceName,
    sensorId: r.sensorId === null ? null : idToWire(r.sensorId),
    channelName,
    settingId: r.settingId === null ? null : idToWire(r.settingId),
    alarmType: r.alarmType as AlarmType,
    level: r.level,
    alarmTime: r.alarmTime.getTime(),
    content: r.content,
    count: r.count,
    lastValue: r.lastValue,
    peakValue: r.peakValue,
    lateBySeconds: r.lateBySeconds,
    resolveState: r.resolveState,
    resolverId: r.resolverId === null ? null : idToWire(r.resolverId),
    resolverName: r.resolverId === null ? null : resolverName,
    resolveTime: r.resolveTime?.getTime() ?? null,
    resolveType: r.resolveType,
    cause: r.cause,
    action: r.action,
    endTime: r.endTime?.getTime() ?? null,
    endReason: r.endReason,
    endedById: r.endedBy === null ? null : idToWire(r.endedBy),
    endedByName: r.endedBy === null ? null : (endedByName ?? null),
  };
}

function selectJoined(db: Queryable, where: SQL | undefined) {
  return db
    .select({
      record: alarmRecords,
      deviceSerial: devices.serial,
      deviceName: devices.name,
      channelName: sensors.name,
      resolverName: resolvers.name,
      endedByName: enders.name,
    })
    .from(alarmRecords)
    .innerJoin(devices, eq(devices.id, alarmRecords.deviceId))
    .leftJoin(sensors, eq(sensors.id, alarmRecords.sensorId))
    .leftJoin(resolvers, eq(resolvers.id, alarmRecords.resolverId))
    .leftJoin(enders, eq(enders.id, alarmRecords.endedBy))
    .where(where);
}

/** `/api/alarm/pageAlarms`: newest first; the time range is [startTime, endTime) on the alarm time. */
export async function pageAlarms(
  db: Db,
  companyId: number,
  /** Devices the caller may see (org/access.ts). */
  scope: SQL,
  query: PageAlarmsRequest,
): Promise<Page<AlarmRecordView>> {
  const filters: SQL[] = [
    eq(alarmRecords.companyId, companyId),
    sql`${alarmRecords.deviceId} IN ${deviceIdsWhere(scope)}`,
  ];
  if (query.resolveState) filters.push(eq(alarmRecords.resolveState, query.resolveState));
  if (query.alarmType) filters.push(eq(alarmRecords.alarmType, query.alarmType));
  if (query.deviceId) filters.push(eq(alarmRecords.deviceId, idFromWire(query.deviceId)!));
  if (query.startTime !== undefined) filters.push(gte(alarmRecords.alarmTime, new Date(query.startTime)));
  if (query.endTime !== undefined) filters.push(lt(alarmRecords.alarmTime, new Date(query.endTime)));
  const where = and(...filters);
  const [total] = await db.select({ n: count() }).from(alarmRecords).where(where);
  const rows = await selectJoined(db, where)
    .orderBy(desc(alarmRecords.alarmTime), desc(alarmRecords.id))
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize);
  return {
    list: rows.map(presentAlarm),
    total: Number(total?.n ?? 0),
    pageNum: query.pageNum,
    pageSize: query.pageSize,
  };
}

async function findAlarm(
  db: Queryable,
  companyId: number,
  scope: SQL,
  wireId: string,
  forUpdate = false,
): Promise<Joined> {
  const id = idFromWire(wireId);
  if (!id) throw new AppError('ALARM_NOT_FOUND');
  const query = selectJoined(
    db,
    and(
      eq(alarmRecords.companyId, companyId),
      eq(alarmRecords.id, id),
      sql`${alarmRecords.deviceId} IN ${deviceIdsWhere(scope)}`,
    ),
  ).limit(1);
  const [row] = forUpdate ? await query.for('update', { of: alarmRecords }) : await query;
  if (!row) throw new AppError('ALARM_NOT_FOUND');
  return row;
}

export async function getAlarmDetail(
  db: Db,
  companyId: number,
  scope: SQL,
  wireId: string,
): Promise<AlarmDetailView> {
  const alarm = await findAlarm(db, companyId, scope, wireId);
  return { ...presentAlarm(alarm), clearing: await clearingOf(db, alarm.record) };
}

/**
 * Closes an alarm with the resolver's account of it. Clearing the condition is the engine's job;
 * resolving is a person's decision, attributed to the caller. Once taken in hand the engine stops
 * reminding and escalating. A normalized alarm (the value came back by itself) can still be
 * resolved, since it happened; a resolved or expired one cannot.
 */
export async function resolveAlarm(db: Db, actor: Actor, scope: SQL, input: ResolveAlarmRequest) {
  const { companyId } = actor;
  // Checked before anything is read: a wrong password must not tell whether the alarm exists.
  const signature = await requireSignature(
    db,
    { userId: actor.userId!, companyId, ip: actor.ip },
    input.signPassword,
    'alarmResolution',
  );
  return db.transaction(async (tx) => {
    const alarm = await findAlarm(tx, companyId, scope, input.id, true);
    if (alarm.record.resolveState === ResolveState.Resolved) throw new AppError('ALARM_ALREADY_RESOLVED');
    if (alarm.record.resolveState === ResolveState.Expired) throw new AppError('ALARM_EXPIRED');
    await tx
      .update(alarmRecords)
      .set({
        resolveState: ResolveState.Resolved,
        resolverId: actor.userId,
        resolveTime: new Date(),
        resolveType: input.resolveType,
        cause: input.cause,
        action: input.action,
      })
      .where(and(eq(alarmRecords.companyId, companyId), eq(alarmRecords.id, alarm.record.id)));
    await recordAudit(tx, actor, {
      action: 'alarm.resolve',
      targetType: 'alarm',
      targetId: alarm.record.id,
      before: { resolveState: alarm.record.resolveState },
      after: {
        resolveState: ResolveState.Resolved,
        resolveType: input.resolveType,
        cause: input.cause,
        action: input.action,
        // Who signed, when and what the signature means (21 CFR 11.50); never the password.
        ...(signature ? { signature } : {}),
      },
    });
    // Read back through the join so the answer carries the resolver's name.
    return presentAlarm(await findAlarm(tx, companyId, scope, input.id));
  });
}

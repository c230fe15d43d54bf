import { type OperationFigures, ResolveState } from '@coldchain/contract';
import { eq, type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';
import { pgArray } from '../../db/pg-array';
import { idToWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { companies } from '../companies/companies.table';
import { equipment } from '../equipment/equipment.table';
import { equipmentInScope } from '../equipment/equipment-access';
import { equipmentStats } from '../equipment/equipment-stats.service';

/*
 * The figures of one operation report (docs/api/operation-reports.md, "Figures"):
 * - devices: every monitor of the scope; online = normal, alarm or abnormal state when the report
 *   is made (a state is only known now, not at the period's end);
 * - availability: the share of device-hours in which the device stored at least one reading.
 *   Each device's hours are the UTC hours from the later of the period's start and the device's
 *   addition, up to the period's end (or now, for a period still running); an hour counts as
 *   covered when the hourly rollup holds a reading of any of its sensors;
 * - alarms raised in the period (alarm time in [start, end)), by type and level;
 * - time to resolve: from the alarm to a person resolving it (state "resolved"), for the period's
 *   alarms resolved by the time the report is made: median (the mean of the two middle ones for
 *   an even count) and worst;
 * - unresolved: the period's alarms still pending or in progress when the report is made;
 * - excursion budget per equipment of the scope that has one, as the equipment page counts it;
 * - credits: message credit spent in the period (debits less refunds); for a department, those of
 *   notifications of its devices' alarms.
 */

export interface FiguresScope {
  companyId: number;
  /** Null: the whole company. */
  department: { id: number; name: string; path: string } | null;
}

const HOUR = 3_600_000;
const UNRESOLVED_LISTED = 50;
const LOWEST_LISTED = 20;

/** `devices` rows of the scope, as a condition on the alias `d`. */
function deviceScope(scope: FiguresScope): SQL {
  const company = sql`d.company_id = ${scope.companyId}`;
  if (!scope.department) return company;
  return sql`${company} and d.department_id in (select dp.id from departments dp
    where dp.company_id = ${scope.companyId} and dp.path like ${`${scope.department.path}%`})`;
}

/** The scope as a caller of the equipment statistics would be (equipment-stats.service.ts). */
function scopeAuth(scope: FiguresScope): Auth {
  return {
    userId: 0,
    sessionId: 0,
    companyId: scope.companyId,
    isAdmin: scope.department === null,
    legalPerson: false,
    departmentId: scope.department?.id ?? null,
    scopePath: scope.department?.path ?? null,
    roleId: null,
    isDepartmentAdmin: false,
    authTags: new Set(['equipment:view']),
    serviceTags: new Set(),
  };
}

const iso = (ms: number) => new Date(ms).toISOString();

export async function operationFigures(
  db: Db,
  scope: FiguresScope,
  period: { startTime: number; endTime: number; timeZone: string },
  options: { now: number; activationEnergyKj: number },
): Promise<OperationFigures> {
  const { startTime, endTime } = period;
  const until = Math.min(endTime, options.now);
  const inScope = deviceScope(scope);
  const [company] = await db
    .select({ name: companies.name })
    .from(companies)
    .where(eq(companies.id, scope.companyId));

  const deviceRows = await queryRows<{
    id: string | number;
    name: string;
    serial: string;
    state: number;
    created: number;
  }>(
    db,
    sql`select d.id, d.name, d.serial, d.state, (extract(epoch from d.created_at) * 1000)::float8 as created
        from devices d where ${inScope} order by d.id`,
  );
  const deviceIds = deviceRows.map((d) => Number(d.id));
  const covered = deviceIds.length
    ? await queryRows<{ device_id: string | number; hours: number }>(
        db,
        sql`select s.device_id, count(distinct h.bucket)::int as hours
            from readings_hourly h join sensors s on s.id = h.sensor_id
            join devices d on d.id = s.device_id
            where s.device_id = any(${pgArray(deviceIds)}::bigint[])
              and h.bucket >= greatest(date_trunc('hour', ${iso(startTime)}::timestamptz), date_trunc('hour', d.created_at))
              and h.bucket < ${iso(until)}::timestamptz
            group by s.device_id`,
      )
    : [];
  const coveredOf = new Map(covered.map((c) => [Number(c.device_id), c.hours]));
  const perDevice = deviceRows.map((d) => {
    const from = Math.floor(Math.max(startTime, d.created) / HOUR) * HOUR;
    const expected = until > from ? Math.ceil((until - from) / HOUR) : 0;
    const hours = Math.min(coveredOf.get(Number(d.id)) ?? 0, expected);
    return { d, expected, hours, ratio: expected ? hours / expected : null };
  });
  const expectedHours = perDevice.reduce((n, x) => n + x.expected, 0);
  const coveredHours = perDevice.reduce((n, x) => n + x.hours, 0);

  const periodAlarms = sql`a.company_id = ${scope.companyId}
    and a.device_id in (select d.id from devices d where ${inScope})
    and a.alarm_time >= ${iso(startTime)}::timestamptz and a.alarm_time < ${iso(endTime)}::timestamptz`;
  const byTypeLevel = await queryRows<{ alarm_type: string; level: number; n: number }>(
    db,
    sql`select a.alarm_type, a.level, count(*)::int as n from alarm_records a where ${periodAlarms}
        group by a.alarm_type, a.level order by a.alarm_type, a.level`,
  );
  const [resolution] = await queryRows<{ n: number; median: number | null; worst: number | null }>(
    db,
    sql`select count(*)::int as n,
          percentile_cont(0.5) within group (order by ms)::float8 as median, max(ms)::float8 as worst
        from (select extract(epoch from (a.resolve_time - a.alarm_time)) * 1000 as ms
              from alarm_records a where ${periodAlarms}
                and a.resolve_state = ${ResolveState.Resolved} and a.resolve_time is not null) r`,
  );
  const unresolved = await queryRows<{
    total: number;
    id: string | number;
    device_name: string;
    serial: string;
    alarm_type: string;
    level: number;
    at: number;
  }>(
    db,
    sql`select count(*) over ()::int as total, a.id, d.name as device_name, d.serial, a.alarm_type, a.level,
          (extract(epoch from a.alarm_time) * 1000)::float8 as at
        from alarm_records a join devices d on d.id = a.device_id
        where ${periodAlarms} and a.resolve_state in (${ResolveState.Pending}, ${ResolveState.InProgress})
        order by a.alarm_time, a.id limit ${UNRESOLVED_LISTED}`,
  );

  const budgeted = await db
    .select({ id: equipment.id, name: equipment.name, serial: equipment.serial })
    .from(equipment)
    .where(sql`${equipmentInScope(scopeAuth(scope))} and ${equipment.excursion} is not null`)
    .orderBy(equipment.serial);
  const equipmentFigures: OperationFigures['equipment'] = [];
  for (const item of budgeted) {
    const stats = await equipmentStats(
      db,
      scopeAuth(scope),
      { id: String(item.id), period: 'custom', startTime, endTime },
      options.activationEnergyKj,
      options.now,
    );
    if (!stats.budget) continue;
    equipmentFigures.push({
      equipmentId: idToWire(item.id),
      name: item.name,
      serial: item.serial,
      budgetMinutes: stats.budget.budgetMinutes,
      usedMinutes: stats.budget.usedMinutes,
      ratio: stats.budget.ratio,
    });
  }

  const creditScope = scope.department
    ? sql`and l.notification_id in (select n.id from alarm_notifications n join alarm_records a on a.id = n.alarm_id
        where a.company_id = ${scope.companyId} and a.device_id in (select d.id from devices d where ${inScope}))`
    : sql``;
  const credits = await queryRows<{ channel: string | null; spent: number }>(
    db,
    sql`select l.channel, (-sum(l.amount))::int as spent from credit_ledger l
        where l.company_id = ${scope.companyId} and l.kind in ('debit', 'refund')
          and l.created_at >= ${iso(startTime)}::timestamptz and l.created_at < ${iso(endTime)}::timestamptz
          ${creditScope}
        group by l.channel order by l.channel`,
  );

  const types = [...new Set(byTypeLevel.map((r) => r.alarm_type))];
  const countOf = (type: string, level: number) =>
    byTypeLevel.find((r) => r.alarm_type === type && r.level === level)?.n ?? 0;
  return {
    companyName: company?.name ?? '',
    departmentName: scope.department?.name ?? null,
    startTime,
    endTime,
    timeZone: period.timeZone,
    generatedAt: options.now,
    devices: {
      total: deviceRows.length,
      online: deviceRows.filter((d) => d.state >= 1 && d.state <= 3).length,
    },
    availability: {
      expectedHours,
      coveredHours,
      ratio: expectedHours ? coveredHours / expectedHours : null,
      lowest: perDevice
        .filter((x) => x.ratio !== null)
        .sort((a, b) => a.ratio! - b.ratio! || Number(a.d.id) - Number(b.d.id))
        .slice(0, LOWEST_LISTED)
        .map((x) => ({
          deviceId: idToWire(Number(x.d.id)),
          name: x.d.name,
          serial: x.d.serial,
          ratio: x.ratio,
        })),
    },
    alarms: {
      total: byTypeLevel.reduce((n, r) => n + r.n, 0),
      byType: types.map((alarmType) => {
        const [level1, level2, level3] = [
          countOf(alarmType, 1),
          countOf(alarmType, 2),
          countOf(alarmType, 3),
        ];
        return { alarmType, level1, level2, level3, total: level1 + level2 + level3 };
      }),
      byLevel: [1, 2, 3].map((level) => ({
        level,
        count: byTypeLevel.filter((r) => r.level === level).reduce((n, r) => n + r.n, 0),
      })),
    },
    resolution: {
      resolved: resolution?.n ?? 0,
      medianMs:
        resolution?.median === null || resolution?.median === undefined
          ? null
          : Math.round(resolution.median),
      worstMs:
        resolution?.worst === null || resolution?.worst === undefined ? null : Math.round(resolution.worst),
    },
    unresolved: {
      count: unresolved[0]?.total ?? 0,
      list: unresolved.map((r) => ({
        alarmId: idToWire(Number(r.id)),
        deviceName: r.device_name,
        serial: r.serial,
        alarmType: r.alarm_type,
        level: r.level,
        alarmTime: Math.round(r.at),
      })),
    },
    equipment: equipmentFigures,
    credits: {
      spent: credits.reduce((n, c) => n + c.spent, 0),
      byChannel: credits.map((c) => ({ channel: c.channel ?? '', spent: c.spent })),
    },
  };
}

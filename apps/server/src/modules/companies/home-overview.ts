import type { CompanyDataInfo } from '@coldchain/contract';
import { and, eq, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';
import { epochParam } from '../../db/page-query';
import { plannedOnce } from '../../db/planned-once';
import { idToWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { alarmRecords } from '../alarms/alarms.table';
import { devices } from '../devices/devices.table';
import { equipmentStatesJson, useStateCounts } from '../equipment/equipment-overview';
import { departmentScope, deviceIdsWhere, visibleDevices } from '../org/access';
import { departments } from '../org/org.table';
import { companies, companyMembers } from './companies.table';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Midnight UTC of the day `ms` falls in: companies have no time zone yet (docs/decisions.md). */
function startOfUtcDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/** Alarms of the company in scope on devices the caller may see. */
function visibleAlarms(auth: Auth) {
  return and(
    eq(alarmRecords.companyId, auth.companyId!),
    sql`${alarmRecords.deviceId} IN ${deviceIdsWhere(visibleDevices(auth))}`,
  );
}

interface FiguresRow {
  company_name: string | null;
  department_count: number;
  member_count: number;
  device_states: Record<string, number> | string | null;
  alarms_today: number;
  pending_alarms: number;
  equipment_states: Record<string, number> | string | null;
}

/**
 * The home page's figures. Device figures need `device:view` and alarm figures `alarm:view`
 * (a member without a role sees zeros rather than the company's state); both count only the
 * devices the caller may see. One statement: each figure is a subquery, and those the caller has
 * no right to sit behind a `case` on a parameter, so they are never run for them (PostgreSQL runs
 * such a subquery when it is first needed) and the statement's text stays the same.
 */
export async function companyDataInfo(db: Db, auth: Auth, now = Date.now()): Promise<CompanyDataInfo> {
  const companyId = auth.companyId!;
  const mayViewDevices = sql`${auth.authTags.has('device:view')}::boolean`;
  const mayViewAlarms = sql`${auth.authTags.has('alarm:view')}::boolean`;
  const mayViewEquipment = sql`${auth.authTags.has('equipment:view')}::boolean`;
  const [row] = await queryRows<FiguresRow>(
    db,
    plannedOnce(sql`select
      (select ${companies.name} from ${companies} where ${companies.id} = ${companyId}::bigint) as company_name,
      (select count(*)::int from ${departments} where ${departmentScope(auth)}) as department_count,
      (select count(*)::int from ${companyMembers}
        join ${departments} on ${departments.id} = ${companyMembers.departmentId}
        where ${companyMembers.companyId} = ${companyId}::bigint and ${departmentScope(auth)}) as member_count,
      case when ${mayViewDevices} then (
        select json_object_agg(s.state, s.n) from (
          select ${devices.state} as state, count(*)::int as n from ${devices}
          where ${visibleDevices(auth)} group by ${devices.state}) s) end as device_states,
      case when ${mayViewAlarms} then (
        select count(*)::int from ${alarmRecords}
        where ${visibleAlarms(auth)} and ${alarmRecords.alarmTime} >= ${epochParam(sql`${startOfUtcDay(now)}::float8`)})
        else 0 end as alarms_today,
      case when ${mayViewAlarms} then (
        select count(*)::int from ${alarmRecords}
        where ${visibleAlarms(auth)} and ${alarmRecords.resolveState} = 1) else 0 end as pending_alarms,
      case when ${mayViewEquipment} then ${equipmentStatesJson(auth)} end as equipment_states`),
  );
  const deviceStates: Record<string, number> = { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0, '6': 0 };
  let deviceCount = 0;
  const counted =
    typeof row?.device_states === 'string' ? JSON.parse(row.device_states) : (row?.device_states ?? {});
  for (const [state, n] of Object.entries(counted as Record<string, number>)) {
    deviceStates[state] = Number(n);
    deviceCount += Number(n);
  }
  return {
    companyId: idToWire(companyId),
    companyName: row?.company_name ?? '',
    departmentCount: Number(row?.department_count ?? 0),
    memberCount: Number(row?.member_count ?? 0),
    deviceCount,
    deviceStates,
    alarmsToday: Number(row?.alarms_today ?? 0),
    pendingAlarms: Number(row?.pending_alarms ?? 0),
    // Without `equipment:view` the figures are not shown at all (null), rather than zeros.
    equipmentStates: auth.authTags.has('equipment:view') ? useStateCounts(row?.equipment_states) : null,
  };
}

interface ChartRow {
  raised: Record<string, number> | string | null;
  resolved: Record<string, number> | string | null;
}

const asCounts = (value: ChartRow['raised']): Record<string, number> =>
  (typeof value === 'string' ? JSON.parse(value) : value) ?? {};

/**
 * Alarms raised and alarms resolved per day over the last `days` days (today included), oldest
 * first, days in UTC (`YYYY-MM-DD`). Without `alarm:view` every day is zero. One statement.
 */
export async function alarmChart(db: Db, auth: Auth, days: number, now = Date.now()) {
  const first = startOfUtcDay(now) - (days - 1) * DAY_MS;
  const out = Array.from({ length: days }, (_, i) => ({
    date: new Date(first + i * DAY_MS).toISOString().slice(0, 10),
    alarms: 0,
    resolved: 0,
  }));
  if (!auth.authTags.has('alarm:view')) return { days: out };
  const since = epochParam(sql`${first}::float8`);
  const day = (column: unknown) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
  const [row] = await queryRows<ChartRow>(
    db,
    plannedOnce(sql`select
      (select json_object_agg(r.day, r.n) from (
        select ${day(alarmRecords.alarmTime)} as day, count(*)::int as n from ${alarmRecords}
        where ${visibleAlarms(auth)} and ${alarmRecords.alarmTime} >= ${since} group by 1) r) as raised,
      (select json_object_agg(r.day, r.n) from (
        select ${day(alarmRecords.resolveTime)} as day, count(*)::int as n from ${alarmRecords}
        where ${visibleAlarms(auth)} and ${alarmRecords.resolveState} = 3
          and ${alarmRecords.resolveTime} >= ${since} group by 1) r) as resolved`),
  );
  const raised = asCounts(row?.raised ?? null);
  const resolved = asCounts(row?.resolved ?? null);
  for (const entry of out) {
    entry.alarms = Number(raised[entry.date] ?? 0);
    entry.resolved = Number(resolved[entry.date] ?? 0);
  }
  return { days: out };
}

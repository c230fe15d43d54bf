import {
  type AlarmChannel,
  type AlarmType,
  AlarmTypes,
  type AvailabilityDevice,
  type Statistics,
  type StatisticsDepartment,
  type StatisticsQuery,
  type StatisticsSeries,
  statisticsBucket,
} from '@coldchain/contract';
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';
import { epochParam, whenGiven } from '../../db/page-query';
import { plannedOnce } from '../../db/planned-once';
import { AppError } from '../../lib/app-error';
import { idFromWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { alarmNotifications, alarmRecords } from '../alarms/alarms.table';
import { creditLedger } from '../delivery/delivery.table';
import { devices, sensors } from '../devices/devices.table';
import { departmentScope, visibleDevices } from '../org/access';
import { departments } from '../org/org.table';
import { readingsHourly } from '../telemetry/readings.table';
import {
  availability,
  type DeviceRaw,
  notificationCounts,
  type ResolveRaw,
  resolveTimes,
} from './statistics-figures';

/** What the one statement answers; json columns may come back as text (PGlite). */
interface StatisticsRow {
  department_picked: boolean;
  departments: Json<{ id: string; name: string; parentId: string | null; level: number }[]>;
  buckets: Json<number[]>;
  by_type: Json<[number, string, number][]>;
  by_level: Json<[number, number, number][]>;
  by_department: Json<[number, string | null, number][]>;
  resolve_rows: Json<ResolveRaw[]>;
  availability: Json<DeviceRaw[]>;
  notifications: Json<[string, string, number][]>;
  credits: Json<[number, string | null, number][]>;
}

type Json<T> = T | string | null;

const parsed = <T>(value: Json<T>): T | null =>
  typeof value === 'string' ? (JSON.parse(value) as T) : (value ?? null);

/** An instant as epoch milliseconds, in SQL. */
const ms = (expression: string) => `(extract(epoch from ${expression}) * 1000)::float8`;

/**
 * Every chart of the statistics page for one period, in ONE statement (pinned in
 * test/page-load-statements.test.ts): the buckets, the departments the caller may filter by, and
 * each section behind a `case` on the caller's right, so a section they may not see is never read.
 *
 * - Scope: devices the caller may see (org/access.ts), within the picked department's subtree.
 *   Alarms, notifications and credits belong to a device through their alarm, and are counted by
 *   the device's department now (not where it stood when the alarm was raised).
 * - Buckets: local days (or hours for periods up to `STATISTICS_HOURLY_MAX_DAYS`) of the request's
 *   time zone, so a day is 23 or 25 hours over a daylight-saving change.
 * - Time to resolve: alarms raised in the period and resolved by a person (resolve state 3).
 * - Availability: device-hours with a stored reading (of any sensor) against device-hours expected,
 *   from the UTC hour the device was added (or the period began) until the period's end or now;
 *   the same rule as the operation report's (operation-reports/operation-figures.ts), so the page
 *   and the PDF agree.
 * - Notifications: those of the period's alarms (found through the alarm's index, where a scan of
 *   every notification by its time would read the whole outbox).
 * - Credits: the net cost (debit less refund) of each message whose debit falls in the period.
 */
export async function companyStatistics(
  db: Db,
  auth: Auth,
  input: StatisticsQuery,
  now = Date.now(),
): Promise<Statistics> {
  return (await loadStatistics(db, auth, input, now)).statistics;
}

/** The statistics and, for the availability export, every device's figures. */
export async function loadStatistics(
  db: Db,
  auth: Auth,
  input: StatisticsQuery,
  now = Date.now(),
): Promise<{ statistics: Statistics; devices: AvailabilityDevice[] }> {
  const companyId = auth.companyId!;
  const bucket = statisticsBucket(input.startTime, input.endTime);
  const departmentId = input.departmentId === undefined ? null : idFromWire(input.departmentId);
  if (input.departmentId !== undefined && departmentId === null) throw new AppError('DEPARTMENT_NOT_FOUND');
  const from = epochParam(sql`${input.startTime}::float8`);
  const to = epochParam(sql`${input.endTime}::float8`);
  const nowTs = epochParam(sql`${now}::float8`);
  const tz = sql`${input.timeZone}::text`;
  const unit = sql`${bucket}::text`;
  const c = sql`${companyId}::bigint`;
  const may = (tag: string) => sql`${auth.authTags.has(tag)}::boolean`;
  const inPicked = whenGiven(
    departmentId,
    'bigint',
    () =>
      sql`${devices.departmentId} in (select d.id from ${departments} d, picked p
        where d.company_id = ${c} and d.path like p.path || '%')`,
  );
  const keyOf = (column: string) =>
    sql`(extract(epoch from date_trunc(${unit}, ${sql.raw(column)}, ${tz})) * 1000)::float8`;
  const [row] = await queryRows<StatisticsRow>(
    db,
    plannedOnce(sql`with picked as (
        select ${departments.path} as path from ${departments}
        where ${departmentScope(auth)} and ${departments.id} = ${departmentId}::bigint
      ), scoped_devices as (
        select ${devices.id} as id, ${devices.departmentId} as department_id, ${devices.serial} as serial,
          ${devices.name} as name, ${devices.createdAt} as created_at
        from ${devices} where ${visibleDevices(auth)} and ${inPicked}
      ), bucket_list as (
        select (g at time zone ${tz}) as b from generate_series(
          date_trunc('day', ${from}, ${tz}) at time zone ${tz}, ${to} at time zone ${tz}, interval '1 day') g
        where ${unit} = 'day'
        union all
        select g as b from generate_series(date_trunc('hour', ${from}, ${tz}), ${to}, interval '1 hour') g
        where ${unit} = 'hour'
      ), alarms_in as (
        select a.id, a.alarm_type, a.level, a.alarm_time, a.resolve_time, a.resolve_state, sd.department_id
        from ${alarmRecords} a join scoped_devices sd on sd.id = a.device_id
        where a.company_id = ${c} and a.alarm_time >= ${from} and a.alarm_time < ${to}
      )
      select
        (${departmentId}::bigint is null or exists (select 1 from picked)) as department_picked,
        (select json_agg(json_build_object('id', ${departments.id}::text, 'name', ${departments.name},
            'parentId', ${departments.parentId}::text, 'level', ${departments.level}) order by ${departments.path})
          from ${departments} where ${departmentScope(auth)}) as departments,
        (select json_agg(${sql.raw(ms('b'))} order by b) from bucket_list where b < ${to}) as buckets,
        case when ${may('alarm:view')} then (select json_agg(json_build_array(k, t, n)) from (
          select ${keyOf('alarm_time')} as k, alarm_type as t, count(*)::int as n from alarms_in group by 1, 2) x)
          end as by_type,
        case when ${may('alarm:view')} then (select json_agg(json_build_array(k, t, n)) from (
          select ${keyOf('alarm_time')} as k, level as t, count(*)::int as n from alarms_in group by 1, 2) x)
          end as by_level,
        case when ${may('alarm:view')} then (select json_agg(json_build_array(k, t, n)) from (
          select ${keyOf('alarm_time')} as k, department_id::text as t, count(*)::int as n from alarms_in group by 1, 2) x)
          end as by_department,
        case when ${may('alarm:view')} then (select json_agg(r) from (
          select department_id::text as "departmentId", grouping(department_id) as "all",
            count(m)::int as resolved, count(*) filter (where resolve_state in (1, 2))::int as open,
            percentile_cont(0.5) within group (order by m) as median,
            percentile_cont(0.9) within group (order by m) as p90, max(m) as worst
          from (select department_id, resolve_state,
              case when resolve_state = 3 and resolve_time is not null
                then extract(epoch from (resolve_time - alarm_time)) / 60 end as m from alarms_in) ra
          group by grouping sets ((department_id), ())) r)
          end as resolve_rows,
        case when ${may('device:view')} then (select json_agg(v) from (
          select sd.id::text as "deviceId", sd.department_id::text as "departmentId", sd.serial, sd.name,
            greatest(0, ceil(extract(epoch from (least(${to}, ${nowTs}) - w.first_hour)) / 3600))::float8
              as expected,
            (select count(distinct h.bucket) from ${readingsHourly} h join ${sensors} s on s.id = h.sensor_id
              where s.device_id = sd.id and h.bucket >= w.first_hour and h.bucket < least(${to}, ${nowTs}))::float8
              as received
          from scoped_devices sd
          cross join lateral (
            select date_trunc('hour', greatest(${from}, sd.created_at), 'UTC') as first_hour) w) v)
          end as availability,
        case when ${may('alarm:view')} then (select json_agg(json_build_array(channel, status, n)) from (
          select n.channel, n.status, count(*)::int as n from ${alarmNotifications} n
          join alarms_in ai on ai.id = n.alarm_id where n.company_id = ${c} group by 1, 2) x)
          end as notifications,
        case when ${may('billing:view')} then (select json_agg(json_build_array(k, channel, used)) from (
          select ${keyOf('debited_at')} as k, channel, sum(used)::int as used from (
            select min(l.created_at) filter (where l.kind = 'debit') as debited_at, max(l.channel) as channel,
              -sum(l.amount) as used
            from ${creditLedger} l
            join ${alarmNotifications} n on n.id = l.notification_id
            join ${alarmRecords} a on a.id = n.alarm_id
            join scoped_devices sd on sd.id = a.device_id
            where l.company_id = ${c} and l.kind in ('debit', 'refund') and l.created_at >= ${from}
            group by l.notification_id) per_message
          where debited_at < ${to} group by 1, 2) x)
          end as credits`),
  );
  if (!row?.department_picked) throw new AppError('DEPARTMENT_NOT_FOUND');
  const buckets = parsed(row.buckets) ?? [];
  const index = new Map(buckets.map((b, i) => [b, i]));
  const series = <K>(entries: [number, K, number][] | null, keys: K[]): StatisticsSeries<K>[] => {
    const byKey = new Map<K, number[]>(keys.map((k) => [k, buckets.map(() => 0)]));
    for (const [b, key, n] of entries ?? []) {
      const i = index.get(b);
      if (i === undefined) continue;
      if (!byKey.has(key))
        byKey.set(
          key,
          buckets.map(() => 0),
        );
      byKey.get(key)![i]! += Number(n);
    }
    return [...byKey].map(([key, counts]) => ({ key, counts }));
  };
  const mayAlarms = auth.authTags.has('alarm:view');
  const byType = parsed(row.by_type);
  const total = (byType ?? []).reduce((sum, [, , n]) => sum + Number(n), 0);
  const byDepartment = parsed(row.by_department);
  const devicesAvailability = auth.authTags.has('device:view')
    ? availability(parsed(row.availability) ?? [])
    : null;
  const statistics: Statistics = {
    startTime: input.startTime,
    endTime: input.endTime,
    timeZone: input.timeZone,
    bucket,
    buckets,
    departments: (parsed(row.departments) ?? []) as StatisticsDepartment[],
    alarms: mayAlarms
      ? {
          total,
          byType: series<AlarmType>(byType as [number, AlarmType, number][] | null, [...AlarmTypes]).filter(
            (s) => s.counts.some((n) => n > 0),
          ),
          byLevel: series<number>(parsed(row.by_level), [1, 2, 3]),
          byDepartment: series<string | null>(
            byDepartment,
            [...new Set((byDepartment ?? []).map(([, d]) => d))].sort(),
          ),
        }
      : null,
    resolveTime: mayAlarms ? resolveTimes(parsed(row.resolve_rows) ?? []) : null,
    availability: devicesAvailability
      ? {
          overall: devicesAvailability.overall,
          rows: devicesAvailability.rows,
          worst: devicesAvailability.worst,
        }
      : null,
    notifications: mayAlarms ? notificationCounts(parsed(row.notifications) ?? []) : null,
    credits: auth.authTags.has('billing:view')
      ? (() => {
          const entries = (parsed(row.credits) ?? []).map(
            ([b, ch, n]) => [b, (ch ?? 'sms') as AlarmChannel, n] as [number, AlarmChannel, number],
          );
          return {
            total: entries.reduce((sum, [, , n]) => sum + Number(n), 0),
            byChannel: series<AlarmChannel>(entries, []).filter((s) => s.counts.some((n) => n !== 0)),
          };
        })()
      : null,
  };
  return { statistics, devices: devicesAvailability?.all ?? [] };
}

import {
  SCREEN_ALARM_MAX,
  SCREEN_DEPARTMENT_MAX,
  SCREEN_DEVICE_MAX,
  SCREEN_SENSOR_MAX,
  type ScreenAlarm,
  type ScreenDepartment,
  type ScreenDevice,
  type ScreenOverview,
  type ScreenSensor,
} from '@coldchain/contract';
import { type SQL, sql } from 'drizzle-orm';
import { type Queryable, queryRows } from '../../db/client';
import { epochParam } from '../../db/page-query';
import { pgArray } from '../../db/pg-array';
import { plannedOnce } from '../../db/planned-once';
import { idToWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { alarmRecords } from '../alarms/alarms.table';
import { companies } from '../companies/companies.table';
import { devices, sensors } from '../devices/devices.table';
import { equipmentStatesJson, useStateCounts } from '../equipment/equipment-overview';
import { departmentScope, visibleDevices } from '../org/access';
import { departments } from '../org/org.table';

const DAY_MS = 24 * 60 * 60 * 1000;
const epochMs = (column: unknown) => sql`(extract(epoch from ${column}) * 1000)::float8`;

interface OverviewRow {
  company_name: string | null;
  device_states: Record<string, number> | string | null;
  equipment_states: Record<string, number> | string | null;
  departments: ScreenDepartment[] | string | null;
  open_alarms: ScreenAlarm[] | string | null;
  open_alarm_total: number | null;
  sensors: ScreenSensor[] | string | null;
  devices: ScreenDevice[] | string | null;
  raised: Record<string, number> | string | null;
  resolved: Record<string, number> | string | null;
}

/** The embedded database hands JSON over as text, node-postgres parses it. */
function json<T>(value: T | string | null | undefined, empty: T): T {
  if (value === null || value === undefined) return empty;
  return typeof value === 'string' ? (JSON.parse(value) as T) : value;
}

/**
 * Open alarms (pending or in progress) of the company on devices the caller may see; `devices` is
 * joined by the caller.
 */
function openAlarmsOf(auth: Auth, mayViewAlarms: SQL): SQL {
  return sql`${mayViewAlarms} and ${alarmRecords.companyId} = ${auth.companyId!}::bigint
    and ${alarmRecords.resolveState} in (1, 2) and ${visibleDevices(auth)}`;
}

/**
 * The whole first paint of a data screen in one statement (docs/decisions.md "Data screens"):
 * device and equipment counts, the departments with their devices and open alarms, the newest
 * open alarms, the latest values of the chosen sensors (or, none chosen, alarming ones first),
 * the devices for the floor view and the alarm trend. Device figures need `device:view`, alarm
 * figures `alarm:view`, equipment figures `equipment:view`: the parts the caller has no right to
 * sit behind a parameter that is false for them, so the statement's text never changes and
 * PostgreSQL does not run those parts. Everything is within the caller's department scope; devices
 * without a department count under the root department.
 */
export async function screenOverview(
  db: Queryable,
  auth: Auth,
  input: { sensorIds?: string[]; trendDays: number },
  now = Date.now(),
): Promise<ScreenOverview> {
  const companyId = auth.companyId!;
  const mayViewDevices = sql`${auth.authTags.has('device:view')}::boolean`;
  const mayViewAlarms = sql`${auth.authTags.has('alarm:view')}::boolean`;
  const mayViewEquipment = sql`${auth.authTags.has('equipment:view')}::boolean`;
  const chosen = input.sensorIds?.length ? pgArray(input.sensorIds.map(Number)) : null;
  const firstDay = Math.floor(now / DAY_MS) * DAY_MS - (input.trendDays - 1) * DAY_MS;
  const since = epochParam(sql`${firstDay}::float8`);
  const day = (column: unknown) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
  const openByDevice = sql`(select ${alarmRecords.deviceId} as device_id, ${alarmRecords.sensorId} as sensor_id,
      count(*)::int as n from ${alarmRecords} join ${devices} on ${devices.id} = ${alarmRecords.deviceId}
      where ${openAlarmsOf(auth, mayViewAlarms)} group by 1, 2)`;

  const [row] = await queryRows<OverviewRow>(
    db,
    plannedOnce(sql`with open_alarms as ${openByDevice}
    select
      (select ${companies.name} from ${companies} where ${companies.id} = ${companyId}::bigint) as company_name,
      case when ${mayViewDevices} then (
        select json_object_agg(s.state, s.n) from (
          select ${devices.state} as state, count(*)::int as n from ${devices}
          where ${visibleDevices(auth)} group by ${devices.state}) s) end as device_states,
      case when ${mayViewEquipment} then ${equipmentStatesJson(auth)} end as equipment_states,
      (select json_agg(json_build_object('id', d.id::text, 'pid', coalesce(d.parent_id, 0)::text,
          'name', d.name, 'level', d.level, 'deviceCount', coalesce(c.n, 0),
          'onlineCount', coalesce(c.online, 0), 'openAlarms', coalesce(a.n, 0)) order by d.path, d.id)
        from (select ${departments.id} as id, ${departments.parentId} as parent_id, ${departments.name} as name,
            ${departments.level} as level, ${departments.path} as path
          from ${departments} where ${departmentScope(auth)}
          order by ${departments.path}, ${departments.id} limit ${SCREEN_DEPARTMENT_MAX}::int) d
        left join (select ${devices.departmentId} as department_id, count(*)::int as n,
            (count(*) filter (where ${devices.state} in (1, 2)))::int as online
          from ${devices} where ${mayViewDevices} and ${visibleDevices(auth)} group by 1) c
          on c.department_id = d.id or (c.department_id is null and d.parent_id is null)
        left join (select ${devices.departmentId} as department_id, sum(o.n)::int as n
          from open_alarms o join ${devices} on ${devices.id} = o.device_id group by 1) a
          on a.department_id = d.id or (a.department_id is null and d.parent_id is null)
      ) as departments,
      (select json_agg(p.row order by p.at desc, p.id desc) from (
        select ${alarmRecords.alarmTime} as at, ${alarmRecords.id} as id, json_build_object(
          'id', ${alarmRecords.id}::text, 'deviceId', ${devices.id}::text, 'deviceName', ${devices.name},
          'deviceSerial', ${devices.serial},
          'departmentName', coalesce((select dd.name from ${departments} dd where dd.id = ${devices.departmentId}), ''),
          'sensorId', ${alarmRecords.sensorId}::text,
          'channelName', (select ss.name from ${sensors} ss where ss.id = ${alarmRecords.sensorId}),
          'alarmType', ${alarmRecords.alarmType}, 'level', ${alarmRecords.level},
          'alarmTime', ${epochMs(alarmRecords.alarmTime)}, 'content', ${alarmRecords.content},
          'count', ${alarmRecords.count}, 'lastValue', ${alarmRecords.lastValue}) as row
        from ${alarmRecords} join ${devices} on ${devices.id} = ${alarmRecords.deviceId}
        where ${openAlarmsOf(auth, mayViewAlarms)}
        order by ${alarmRecords.alarmTime} desc, ${alarmRecords.id} desc limit ${SCREEN_ALARM_MAX}::int) p
      ) as open_alarms,
      (select coalesce(sum(n), 0)::int from open_alarms) as open_alarm_total,
      case when ${mayViewDevices} then (select json_agg(p.row order by p.k) from (
        select row_number() over (order by array_position(${chosen}::bigint[], ${sensors.id}) nulls last,
            (oa.n is not null) desc, ${devices.name}, ${devices.id}, ${sensors.channel}) as k,
          json_build_object('id', ${sensors.id}::text, 'deviceId', ${devices.id}::text,
            'deviceName', ${devices.name}, 'channel', ${sensors.channel}, 'name', ${sensors.name},
            'type', ${sensors.type}, 'unit', ${sensors.unit}, 'value', ${sensors.value},
            'updateTime', ${epochMs(sensors.updateTime)}, 'rangeMin', ${sensors.rangeMin},
            'rangeMax', ${sensors.rangeMax}, 'alarming', oa.n is not null) as row
        from ${sensors} join ${devices} on ${devices.id} = ${sensors.deviceId}
        left join open_alarms oa on oa.sensor_id = ${sensors.id}
        where ${visibleDevices(auth)} and ${sensors.enabled}
          and (${chosen}::bigint[] is null or ${sensors.id} = any(${chosen}::bigint[]))
        order by 1 limit ${SCREEN_SENSOR_MAX}::int) p) end as sensors,
      case when ${mayViewDevices} then (select json_agg(p.row order by p.k) from (
        select row_number() over (order by coalesce(oa.n, 0) desc, ${devices.name}, ${devices.id}) as k,
          json_build_object('id', ${devices.id}::text, 'name', ${devices.name}, 'serial', ${devices.serial},
            'state', ${devices.state}, 'departmentId', ${devices.departmentId}::text,
            'lng', ${devices.lng}, 'lat', ${devices.lat}, 'openAlarms', coalesce(oa.n, 0)) as row
        from ${devices}
        left join (select device_id, sum(n)::int as n from open_alarms group by 1) oa on oa.device_id = ${devices.id}
        where ${visibleDevices(auth)}
        order by 1 limit ${SCREEN_DEVICE_MAX}::int) p) end as devices,
      case when ${mayViewAlarms} then (select json_object_agg(r.day, r.n) from (
        select ${day(alarmRecords.alarmTime)} as day, count(*)::int as n
        from ${alarmRecords} join ${devices} on ${devices.id} = ${alarmRecords.deviceId}
        where ${alarmRecords.companyId} = ${companyId}::bigint and ${visibleDevices(auth)}
          and ${alarmRecords.alarmTime} >= ${since} group by 1) r) end as raised,
      case when ${mayViewAlarms} then (select json_object_agg(r.day, r.n) from (
        select ${day(alarmRecords.resolveTime)} as day, count(*)::int as n
        from ${alarmRecords} join ${devices} on ${devices.id} = ${alarmRecords.deviceId}
        where ${alarmRecords.companyId} = ${companyId}::bigint and ${visibleDevices(auth)}
          and ${alarmRecords.resolveState} = 3 and ${alarmRecords.resolveTime} >= ${since} group by 1) r) end as resolved`),
  );

  const deviceStates: Record<string, number> = { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0, '6': 0 };
  let deviceCount = 0;
  for (const [state, n] of Object.entries(json<Record<string, number>>(row?.device_states, {}))) {
    deviceStates[state] = Number(n);
    deviceCount += Number(n);
  }
  const raised = json<Record<string, number>>(row?.raised, {});
  const resolved = json<Record<string, number>>(row?.resolved, {});
  const trend = Array.from({ length: input.trendDays }, (_, i) => {
    const date = new Date(firstDay + i * DAY_MS).toISOString().slice(0, 10);
    return { date, alarms: Number(raised[date] ?? 0), resolved: Number(resolved[date] ?? 0) };
  });
  return {
    companyId: idToWire(companyId),
    companyName: row?.company_name ?? '',
    generatedAt: now,
    deviceStates,
    deviceCount,
    equipmentStates: auth.authTags.has('equipment:view') ? useStateCounts(row?.equipment_states) : null,
    departments: json<ScreenDepartment[]>(row?.departments, []),
    openAlarms: json<ScreenAlarm[]>(row?.open_alarms, []).map((alarm) => ({
      ...alarm,
      alarmTime: Math.round(alarm.alarmTime),
    })),
    openAlarmTotal: Number(row?.open_alarm_total ?? 0),
    sensors: json<ScreenSensor[]>(row?.sensors, []).map((sensor) => ({
      ...sensor,
      updateTime: sensor.updateTime === null ? null : Math.round(sensor.updateTime),
    })),
    devices: json<ScreenDevice[]>(row?.devices, []),
    trend,
  };
}

import {
  type AlarmPauseReason,
  EquipmentUseState,
  MAP_EQUIPMENT_LIMIT,
  type MapEquipmentView,
  type SensorEquipmentView,
} from '@coldchain/contract';
import { type SQL, sql } from 'drizzle-orm';
import { type Queryable, queryRows } from '../../db/client';
import { idToWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { equipment, equipmentSensors, equipmentTypes } from '../equipment/equipment.table';
import { equipmentInScope } from '../equipment/equipment-access';
import { visibleDevices } from '../org/access';
import { devices, sensors } from './devices.table';

/**
 * The equipment a sensor measures and why its alarms are paused, for the monitor detail, the
 * alarm detail and the map. The conditions are those of `sensorSilencedByEquipment`
 * (equipment-suppression.ts), which the alarm engine applies: under service, disposed, or inside
 * a maintenance record's window.
 */
interface EquipmentRow {
  sensor_id?: string | number;
  id: string | number;
  name: string;
  serial: string;
  use_state: number;
  maintenance_until: string | Date | null;
}

/** Columns of `equipment`, unaliased: the scope conditions name the table itself. */
const EQUIPMENT_COLUMNS = sql`equipment.id, equipment.name, equipment.serial, equipment.use_state,
  (select max(m.end_time) from equipment_records m where m.equipment_id = equipment.id and m.kind = 'maintenance'
     and m.time <= now() and m.end_time > now()) as maintenance_until`;

function present(row: EquipmentRow): SensorEquipmentView {
  const until = row.maintenance_until === null ? null : new Date(row.maintenance_until).getTime();
  const alarmsPaused: AlarmPauseReason | null =
    row.use_state === EquipmentUseState.Disposed
      ? 'disposed'
      : row.use_state === EquipmentUseState.UnderService
        ? 'underService'
        : until !== null
          ? 'maintenance'
          : null;
  return {
    id: idToWire(Number(row.id)),
    name: row.name,
    serial: row.serial,
    useState: Number(row.use_state),
    alarmsPaused,
    pausedUntil: alarmsPaused === 'maintenance' ? until : null,
  };
}

/**
 * The equipment measured by the sensors `sensorsWhere` picks (a condition on `s`, the sensors
 * table), as one JSON array, so the monitor and alarm details carry it in their own statement.
 * Only equipment of the sensor's own company counts.
 */
export function sensorEquipmentJson(sensorsWhere: SQL): SQL {
  return sql`coalesce((select json_agg(json_build_object(
      'sensor_id', es.sensor_id, 'id', equipment.id, 'name', equipment.name, 'serial', equipment.serial,
      'use_state', equipment.use_state,
      'maintenance_until', (select max(m.end_time) from equipment_records m where m.equipment_id = equipment.id
        and m.kind = 'maintenance' and m.time <= now() and m.end_time > now())))
    from ${equipmentSensors} es
    join ${equipment} on equipment.id = es.equipment_id
    join ${sensors} s on s.id = es.sensor_id
    join ${devices} sd on sd.id = s.device_id
    where equipment.company_id = sd.company_id and ${sensorsWhere}), '[]'::json)`;
}

/** Reads what `sensorEquipmentJson` gave: sensor id to the equipment it measures. */
export function sensorEquipmentFrom(value: EquipmentRow[] | string | null): Map<number, SensorEquipmentView> {
  const rows: EquipmentRow[] = (typeof value === 'string' ? JSON.parse(value) : value) ?? [];
  return new Map(rows.map((row) => [Number(row.sensor_id), present(row)]));
}

/**
 * `/api/device/mapEquipment`: the equipment in the caller's equipment scope, each with the
 * monitors measuring it that the caller may also see (docs/decisions.md "Equipment on the map").
 * Equipment has a region and address but no coordinates: the console draws it beside its first
 * located monitor and lists the rest as not located.
 */
export async function mapEquipment(
  db: Queryable,
  auth: Auth,
): Promise<{ list: MapEquipmentView[]; total: number }> {
  const visible: SQL = visibleDevices(auth);
  const rows = await queryRows<
    EquipmentRow & {
      type_name: string;
      region: string;
      address: string;
      device_ids: (string | number)[] | null;
      total: string | number;
    }
  >(
    db,
    sql`select ${EQUIPMENT_COLUMNS}, t.name as type_name, equipment.region, equipment.address,
        count(*) over () as total,
        (select array_agg(distinct devices.id order by devices.id) from ${equipmentSensors} es
           join ${sensors} s on s.id = es.sensor_id join ${devices} on devices.id = s.device_id
           where es.equipment_id = equipment.id and ${visible}) as device_ids
      from ${equipment} join ${equipmentTypes} t on t.id = equipment.type_id
      where ${equipmentInScope(auth)}
      order by equipment.name, equipment.id
      limit ${MAP_EQUIPMENT_LIMIT}`,
  );
  return {
    list: rows.map((row) => ({
      ...present(row),
      typeName: row.type_name,
      region: row.region,
      address: row.address,
      deviceIds: (row.device_ids ?? []).map((id) => idToWire(Number(id))),
    })),
    total: Number(rows[0]?.total ?? 0),
  };
}

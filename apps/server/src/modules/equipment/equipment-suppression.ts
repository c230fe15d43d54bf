import { EquipmentUseState } from '@coldchain/contract';
import { type SQL, sql } from 'drizzle-orm';
import { type Queryable, queryRows } from '../../db/client';
import { pgArray } from '../../db/pg-array';

/**
 * Spec section 4 function states and issue 14: while equipment is under service (use state 2),
 * disposed (3), or inside a maintenance record's window, the sensors measuring it keep recording
 * but raise no alarm. The alarm engine ANDs `NOT sensorSilencedByEquipment(x.id)` into the query
 * that picks the sensors it judges (alarm-context.ts), exactly as it leaves out a switched-off
 * channel; a sensor bound to no equipment is never silenced.
 */
export function sensorSilencedByEquipment(sensorId: SQL): SQL {
  return sql`exists (select 1 from equipment_sensors es join equipment e on e.id = es.equipment_id
    where es.sensor_id = ${sensorId} and (e.use_state in (${EquipmentUseState.UnderService}, ${EquipmentUseState.Disposed})
      or exists (select 1 from equipment_records m where m.equipment_id = e.id and m.kind = 'maintenance'
        and m.time <= now() and m.end_time > now())))`;
}

/** Which of the equipment ids have their alarms suppressed now (for the detail page). */
export async function alarmSuppressedNow(db: Queryable, equipmentIds: number[]): Promise<Set<number>> {
  if (equipmentIds.length === 0) return new Set();
  const rows = await queryRows<{ id: string | number }>(
    db,
    sql`select e.id from equipment e where e.id = any(${sql`${pgArray(equipmentIds)}::bigint[]`})
      and (e.use_state in (${EquipmentUseState.UnderService}, ${EquipmentUseState.Disposed})
        or exists (select 1 from equipment_records m where m.equipment_id = e.id and m.kind = 'maintenance'
          and m.time <= now() and m.end_time > now()))`,
  );
  return new Set(rows.map((r) => Number(r.id)));
}

import { EquipmentUseState } from '@coldchain/contract';
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';
import type { Reminder } from '../reminders/reminder-sweep';

/**
 * Spec section 5 "a missed patrol is a reminder notice": for each enabled plan, the round that
 * ended last, when no patrol record of the plan's equipment falls in it. Only that round is
 * looked at, so a sweep after a long pause sends one notice per plan, not one per round; rounds
 * that ended before the plan was saved, and plans whose equipment is all disposed, are not
 * reminded. The notice goes to the people who may see a monitor measuring the equipment, else
 * to the company administrators (as equipment calibration reminders).
 */
export async function missedPatrols(db: Db, now: Date): Promise<Reminder[]> {
  const rows = await queryRows<{
    id: string | number;
    company_id: string | number;
    name: string;
    round_start: Date | string;
    round_end: Date | string;
    target: string | null;
    device_id: string | number | null;
  }>(
    db,
    sql`with p as (
          select pp.*, pp.start_time + (k - 1) * make_interval(mins => pp.interval_minutes) as round_start,
                 pp.start_time + k * make_interval(mins => pp.interval_minutes) as round_end
          from patrol_plans pp
          cross join lateral (select floor(extract(epoch from (${now.toISOString()}::timestamptz - pp.start_time))
                                / (pp.interval_minutes * 60))::int as k) r
          where pp.enabled and r.k >= 1
        ), members as (
          select p.id as plan_id, e.id as equipment_id from p join equipment e
            on (e.id = p.equipment_id or e.group_id = p.group_id) and e.use_state <> ${EquipmentUseState.Disposed}
        )
        select p.id, p.company_id, p.name, p.round_start, p.round_end,
          coalesce((select e.name || ' (' || e.serial || ')' from equipment e where e.id = p.equipment_id),
                   (select g.name from device_groups g where g.id = p.group_id)) as target,
          (select s.device_id from members m join equipment_sensors es on es.equipment_id = m.equipment_id
             join sensors s on s.id = es.sensor_id where m.plan_id = p.id order by s.id limit 1) as device_id
        from p
        where p.round_end > p.created_at
          and exists (select 1 from members m where m.plan_id = p.id)
          and not exists (select 1 from equipment_records r where r.kind = 'patrol'
            and r.time >= p.round_start and r.time < p.round_end
            and (r.plan_id = p.id or r.equipment_id = p.equipment_id
                 or r.equipment_id in (select id from equipment where group_id = p.group_id)))`,
  );
  return rows.map((p) => {
    const start = new Date(p.round_start);
    const end = new Date(p.round_end);
    const span = `${start.toISOString().slice(0, 16).replace('T', ' ')} - ${end.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    return {
      companyId: Number(p.company_id),
      deviceId: p.device_id === null ? undefined : Number(p.device_id),
      key: `patrolMissed:${p.id}:${start.getTime()}`,
      kind: 'reminder.patrolMissed',
      title: { en: 'Patrol missed', cn: '巡检未完成' },
      content: {
        en: `No patrol of ${p.target ?? ''} was recorded for the plan "${p.name}" in the round ${span}. Patrol it and record the patrol.`,
        cn: `巡检计划“${p.name}”在 ${span} 这一轮未记录${p.target ?? ''}的巡检，请尽快巡检并填写巡检记录。`,
      },
    };
  });
}

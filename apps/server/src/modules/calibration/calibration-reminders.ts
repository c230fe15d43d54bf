import { CALIBRATION_REMINDER_DAYS } from '@coldchain/contract';
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';
import type { Reminder } from '../reminders/reminder-sweep';

const DAY_MS = 86_400_000;

/**
 * Spec section 9 "Calibration reminder: 30 days before due": a device whose latest calibration
 * falls due within 30 days (or is overdue). Only the latest record counts, so a new calibration
 * silences the old due date; its own due date is reminded when it comes near. The people who may
 * see the device are told (they are the ones who use it), once per device and due date.
 * Equipment calibrations (same table) are reminded by the same rule, to the people who may see a
 * monitor measuring the equipment, else the company administrators; disposed equipment is not.
 */
export async function calibrationsDue(db: Db, now: Date): Promise<Reminder[]> {
  const horizon = new Date(now.getTime() + CALIBRATION_REMINDER_DAYS * DAY_MS).toISOString();
  const rows = await queryRows<{
    company_id: string | number;
    id: string | number;
    name: string;
    serial: string;
    next_due_at: Date | string;
  }>(
    db,
    sql`select d.company_id, d.id, d.name, d.serial, latest.next_due_at
        from devices d
        join lateral (
          select c.next_due_at from device_calibrations c
          where c.device_id = d.id
          order by c.calibrated_at desc, c.id desc
          limit 1
        ) latest on true
        where d.state <> 6 and latest.next_due_at < ${horizon}`,
  );
  return [...rows.map((d) => deviceReminder(d, now)), ...(await equipmentCalibrationsDue(db, now, horizon))];
}

function deviceReminder(
  d: {
    company_id: string | number;
    id: string | number;
    name: string;
    serial: string;
    next_due_at: Date | string;
  },
  now: Date,
): Reminder {
  const due = new Date(d.next_due_at);
  const date = due.toISOString().slice(0, 10);
  const overdue = due.getTime() <= now.getTime();
  return {
    companyId: Number(d.company_id),
    deviceId: Number(d.id),
    key: `calibrationDue:${d.id}:${date}`,
    kind: 'reminder.calibrationDue',
    title: overdue
      ? { en: 'Calibration overdue', cn: '校准已过期' }
      : { en: 'Calibration due soon', cn: '校准即将到期' },
    content: overdue
      ? {
          en: `The calibration of ${d.name} (${d.serial}) was due on ${date}. Have it calibrated and add the new record.`,
          cn: `${d.name}（${d.serial}）的校准已于 ${date} 到期，请尽快校准并添加新的校准记录。`,
        }
      : {
          en: `The calibration of ${d.name} (${d.serial}) is due on ${date}. Arrange the calibration in time.`,
          cn: `${d.name}（${d.serial}）的校准将于 ${date} 到期，请及时安排校准。`,
        },
  };
}

async function equipmentCalibrationsDue(db: Db, now: Date, horizon: string): Promise<Reminder[]> {
  const rows = await queryRows<{
    company_id: string | number;
    id: string | number;
    name: string;
    serial: string;
    next_due_at: Date | string;
    device_id: string | number | null;
  }>(
    db,
    sql`select e.company_id, e.id, e.name, e.serial, latest.next_due_at,
          (select s.device_id from equipment_sensors es join sensors s on s.id = es.sensor_id
           where es.equipment_id = e.id order by s.id limit 1) as device_id
        from equipment e
        join lateral (
          select c.next_due_at from device_calibrations c
          where c.equipment_id = e.id
          order by c.calibrated_at desc, c.id desc
          limit 1
        ) latest on true
        where e.use_state <> 3 and latest.next_due_at < ${horizon}`,
  );
  return rows.map((e) => {
    const reminder = deviceReminder(e, now);
    return {
      ...reminder,
      deviceId: e.device_id === null ? undefined : Number(e.device_id),
      key: `equipmentCalibrationDue:${e.id}:${new Date(e.next_due_at).toISOString().slice(0, 10)}`,
    };
  });
}

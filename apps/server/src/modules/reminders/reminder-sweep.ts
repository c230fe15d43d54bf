import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';
import { calibrationsDue } from '../calibration/calibration-reminders';
import { companyMembers } from '../companies/companies.table';
import { missedPatrols } from '../equipment/equipment-patrol-reminders';
import type { SweepGate } from '../jobs/sweep-slots';
import { notices } from '../notices/notices.table';
import { usersWhoMaySeeDeviceQuery } from '../org/access';
import { remindersSent } from './reminders.table';

const DAY_MS = 86_400_000;
/** Spec section 9: devices are reminded of 30 days before they expire; same lead for renewal. */
export const EXPIRY_LEAD_DAYS = 30;
/** Spec section 9: "Alarm-setter count reminder: when fewer than 3". */
export const MIN_ALARM_SETTERS = 3;
/** Below this balance administrators are told to top up before alarms go unsent. */
export const LOW_CREDIT_THRESHOLD = 20;

export interface Reminder {
  companyId: number;
  /** A device's own reminder goes to the people who may see the device, not the administrators. */
  deviceId?: number;
  key: string;
  kind: string;
  title: { en: string; cn: string };
  content: { en: string; cn: string };
}

/**
 * Reminders as notices (alarms issue, item 7): devices expiring within 30 days, devices whose
 * alarm settings notify fewer than 3 people, and low message credit. They go to the company's
 * administrators, are free of credit (spec section 9) and feed the top-bar badge. Each is sent
 * once per key. Calibrations falling due within 30 days (modules/calibration) go to the people
 * who may see the device instead.
 */
export async function runReminderSweep(db: Db, now = new Date()): Promise<number> {
  const reminders = [
    ...(await expiringDevices(db, now)),
    ...(await devicesWithFewSetters(db)),
    ...(await lowCredit(db, now)),
    ...(await calibrationsDue(db, now)),
    ...(await missedPatrols(db, now)),
  ];
  let sent = 0;
  const unique = [...new Map(reminders.map((r) => [`${r.companyId}:${r.key}`, r])).values()];
  for (let start = 0; start < unique.length; start += REMINDERS_PER_STATEMENT) {
    sent += await deliverOnce(db, unique.slice(start, start + REMINDERS_PER_STATEMENT), now);
    // Ingest and the console's calls get the database between two parts.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return sent;
}

/**
 * Reminders per statement. A fleet whose every device has too few alarm recipients gives one
 * reminder per device: 10 000 at the first sweep. Sent one by one (claim, recipients, notice, each
 * in its transaction) they held the embedded database for over half a minute; 200 to a statement
 * keep each part to tens of milliseconds.
 */
const REMINDERS_PER_STATEMENT = 200;

/**
 * Claims each reminder's key and writes its notices to its recipients, in one statement: the
 * company's administrators, or for a device's own reminder the people who may see the device.
 * A key already claimed (sent by an earlier sweep, or by another instance meanwhile) sends nothing.
 * Returns how many reminders were sent.
 */
async function deliverOnce(db: Db, reminders: Reminder[], now: Date): Promise<number> {
  const rows = reminders.map((r) => ({
    company_id: r.companyId,
    key: r.key,
    device_id: r.deviceId ?? null,
    kind: r.kind,
    title: r.title,
    content: r.content,
  }));
  const [row] = await queryRows<{ sent: number }>(
    db,
    sql`with r as (
          select * from json_to_recordset(${JSON.stringify(rows)}::json)
                    as r(company_id bigint, key text, device_id bigint, kind text, title jsonb, content jsonb)
        ), claimed as (
          insert into ${remindersSent} (company_id, key, sent_at)
          select company_id, key, ${now.toISOString()}::timestamptz from r
          on conflict do nothing
          returning company_id, key
        ), due as (
          select r.* from r join claimed c on c.company_id = r.company_id and c.key = r.key
        ), written as (
          insert into ${notices} (company_id, user_id, kind, title, content)
          select due.company_id, who.user_id, due.kind, due.title, due.content
          from due cross join lateral (
            select m.user_id from ${companyMembers} m
            where due.device_id is null and m.company_id = due.company_id and m.is_admin
            union
            select seen.user_id from (${usersWhoMaySeeDeviceQuery(sql`due.company_id`, sql`due.device_id`)}) seen
            where due.device_id is not null
          ) who
          returning 1
        )
        select count(*)::int as sent from due`,
  );
  return row?.sent ?? 0;
}

const dateOf = (d: Date) => d.toISOString().slice(0, 10);

async function expiringDevices(db: Db, now: Date): Promise<Reminder[]> {
  const rows = await queryRows<{
    company_id: string | number;
    id: string | number;
    name: string;
    serial: string;
    expire_time: Date | string;
  }>(
    db,
    sql`select company_id, id, name, serial, expire_time from devices
        where state <> 6 and expire_time < ${new Date(now.getTime() + EXPIRY_LEAD_DAYS * DAY_MS).toISOString()}`,
  );
  return rows.map((d) => {
    const expiry = new Date(d.expire_time);
    const date = dateOf(expiry);
    const expired = expiry.getTime() <= now.getTime();
    return {
      companyId: Number(d.company_id),
      // A renewal moves the expiry, so the next approach of it is reminded again.
      key: `deviceExpiry:${d.id}:${date}`,
      kind: 'reminder.deviceExpiry',
      title: expired
        ? { en: 'Device service expired', cn: '设备服务已到期' }
        : { en: 'Device service expires soon', cn: '设备服务即将到期' },
      content: expired
        ? {
            en: `The service of ${d.name} (${d.serial}) expired on ${date}. Renew it to keep monitoring and alarms.`,
            cn: `${d.name}（${d.serial}）的服务已于 ${date} 到期，请续费以继续监测和报警。`,
          }
        : {
            en: `The service of ${d.name} (${d.serial}) expires on ${date}. Renew it to keep monitoring and alarms.`,
            cn: `${d.name}（${d.serial}）的服务将于 ${date} 到期，请及时续费以免影响监测和报警。`,
          },
    };
  });
}

async function devicesWithFewSetters(db: Db): Promise<Reminder[]> {
  const rows = await queryRows<{
    company_id: string | number;
    id: string | number;
    name: string;
    serial: string;
    setters: string | number;
  }>(
    db,
    sql`select d.company_id, d.id, d.name, d.serial,
               (select count(distinct n) from alarm_settings s, unnest(s.notifier_ids) as n
                 where s.device_id = d.id and s.enabled) as setters
        from devices d
        where d.state <> 6 and exists (select 1 from alarm_settings s where s.device_id = d.id and s.enabled)`,
  );
  return rows
    .filter((d) => Number(d.setters) < MIN_ALARM_SETTERS)
    .map((d) => ({
      companyId: Number(d.company_id),
      // Told again when the number of people changes and is still too low.
      key: `fewSetters:${d.id}:${Number(d.setters)}`,
      kind: 'reminder.fewAlarmSetters',
      title: { en: 'Too few alarm recipients', cn: '报警接收人过少' },
      content: {
        en: `Alarms of ${d.name} (${d.serial}) reach ${Number(d.setters)} ${Number(d.setters) === 1 ? 'person' : 'people'}. At least ${MIN_ALARM_SETTERS} are recommended so that someone always answers.`,
        cn: `${d.name}（${d.serial}）的报警只通知 ${Number(d.setters)} 人，建议至少设置 ${MIN_ALARM_SETTERS} 名报警接收人，确保有人及时处理。`,
      },
    }));
}

async function lowCredit(db: Db, now: Date): Promise<Reminder[]> {
  // Zero is told by the delivery worker when a message is held back; this is the early warning.
  const rows = await queryRows<{ company_id: string | number; balance: number }>(
    db,
    sql`select company_id, balance from company_credits where balance > 0 and balance < ${LOW_CREDIT_THRESHOLD}`,
  );
  return rows.map((row) => ({
    companyId: Number(row.company_id),
    key: `lowCredit:${dateOf(now)}`,
    kind: 'reminder.lowCredit',
    title: { en: 'Message credit is low', cn: '消息余额不足' },
    content: {
      en: `Only ${row.balance} message credits are left. Top up so that SMS, phone call and e-mail alarms keep going out.`,
      cn: `消息余额仅剩 ${row.balance}，请及时充值，以免短信、电话和邮件报警无法发送。`,
    },
  }));
}

/** Runs the sweep every `intervalMs` (server.ts); returns the function that stops it. */
export function startReminderSweep(
  db: Db,
  intervalMs: number,
  onError: (error: unknown) => void,
  gate?: SweepGate,
): () => void {
  // One instance per period (jobs/sweep-slots.ts), so nobody gets a reminder twice.
  const run = async () => {
    if (gate && !(await gate('reminders', intervalMs))) return;
    await runReminderSweep(db).catch(onError);
  };
  const timer = setInterval(run, intervalMs);
  timer.unref();
  // A first run soon after start, not an interval later.
  const first = setTimeout(run, 10_000);
  first.unref();
  return () => {
    clearInterval(timer);
    clearTimeout(first);
  };
}

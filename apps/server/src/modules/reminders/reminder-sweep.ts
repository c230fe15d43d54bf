import { type SQL, sql } from 'drizzle-orm';
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
export async function runReminderSweep(
  db: Db,
  now = new Date(),
  /** Devices per read (DEVICES_PER_READ); smaller in tests, to cross ranges with few devices. */
  devicesPerRead = DEVICES_PER_READ,
): Promise<number> {
  const reminders = [
    ...(await deviceReminders(db, now, devicesPerRead)),
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

/**
 * Devices per read of the device reminders. Every device of a fleet may have one (a fleet bought
 * together expires together; the bench's devices all notify fewer than 3 people): read at once,
 * 19 000 devices held the embedded database for 180-800 ms every hour, and every acknowledgement
 * with it. A range of device ids at a time keeps each read to milliseconds, and reminders
 * already sent are left out by the read itself instead of being claimed again every hour.
 */
export const DEVICES_PER_READ = 2_000;

/** Device ids (after, upTo]; upTo null for the last range. */
type IdRange = { after: number; upTo: number | null };

/** The device ids of the sweep, a range at a time. */
async function* deviceIdRanges(db: Db, devicesPerRead: number): AsyncGenerator<IdRange> {
  let after = 0;
  for (;;) {
    const [bound] = await queryRows<{ id: string | number }>(
      db,
      sql`select id from devices where id > ${after} order by id offset ${devicesPerRead - 1} limit 1`,
    );
    const upTo = bound ? Number(bound.id) : null;
    yield { after, upTo };
    if (upTo === null) return;
    after = upTo;
    // Ingest and the console's calls get the database between two reads.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const inRange = (column: SQL, { after, upTo }: IdRange) =>
  upTo === null ? sql`${column} > ${after}` : sql`${column} > ${after} and ${column} <= ${upTo}`;

/** The devices' own reminders (expiry, too few alarm recipients), a range of devices at a time. */
async function deviceReminders(db: Db, now: Date, devicesPerRead: number): Promise<Reminder[]> {
  const found: Reminder[] = [];
  for await (const range of deviceIdRanges(db, devicesPerRead)) {
    found.push(...(await expiringDevices(db, now, range)));
    found.push(...(await devicesWithFewSetters(db, range)));
  }
  return found;
}

async function expiringDevices(db: Db, now: Date, range: IdRange): Promise<Reminder[]> {
  const until = new Date(now.getTime() + EXPIRY_LEAD_DAYS * DAY_MS).toISOString();
  const rows = await queryRows<ExpiringDevice>(
    db,
    sql`select d.company_id, d.id, d.name, d.serial, d.expire_time from devices d
        where ${inRange(sql`d.id`, range)} and d.state <> 6 and d.expire_time < ${until}
          and not exists (select 1 from ${remindersSent} r where r.company_id = d.company_id
                            and r.key = ${EXPIRY_KEY}::text || d.id || ':' || to_char(d.expire_time at time zone 'UTC', 'YYYY-MM-DD'))`,
  );
  return rows.map((d) => expiryReminder(d, now));
}

const EXPIRY_KEY = 'deviceExpiry:';

interface ExpiringDevice {
  company_id: string | number;
  id: string | number;
  name: string;
  serial: string;
  expire_time: Date | string;
}

function expiryReminder(d: ExpiringDevice, now: Date): Reminder {
  const expiry = new Date(d.expire_time);
  const date = dateOf(expiry);
  const expired = expiry.getTime() <= now.getTime();
  return {
    companyId: Number(d.company_id),
    // A renewal moves the expiry, so the next approach of it is reminded again.
    key: `${EXPIRY_KEY}${d.id}:${date}`,
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
}

const FEW_SETTERS_KEY = 'fewSetters:';

async function devicesWithFewSetters(db: Db, range: IdRange): Promise<Reminder[]> {
  const rows = await queryRows<DeviceWithFewSetters>(
    db,
    // The people notified by a device's enabled settings, counted once each; a device without
    // enabled settings has no alarms to miss and is not reminded.
    sql`with counted as (
          select d.company_id, d.id, d.name, d.serial, count(distinct n.user_id) as setters
          from devices d
          join alarm_settings s on s.company_id = d.company_id and s.device_id = d.id and s.enabled
          left join lateral unnest(s.notifier_ids) as n(user_id) on true
          where ${inRange(sql`d.id`, range)} and d.state <> 6
          group by d.company_id, d.id, d.name, d.serial
        )
        select c.* from counted c
        where c.setters < ${MIN_ALARM_SETTERS}
          and not exists (select 1 from ${remindersSent} r where r.company_id = c.company_id
                            and r.key = ${FEW_SETTERS_KEY}::text || c.id || ':' || c.setters)`,
  );
  return rows.map(fewSettersReminder);
}

interface DeviceWithFewSetters {
  company_id: string | number;
  id: string | number;
  name: string;
  serial: string;
  setters: string | number;
}

function fewSettersReminder(d: DeviceWithFewSetters): Reminder {
  const setters = Number(d.setters);
  return {
    companyId: Number(d.company_id),
    // Told again when the number of people changes and is still too low.
    key: `${FEW_SETTERS_KEY}${d.id}:${setters}`,
    kind: 'reminder.fewAlarmSetters',
    title: { en: 'Too few alarm recipients', cn: '报警接收人过少' },
    content: {
      en: `Alarms of ${d.name} (${d.serial}) reach ${setters} ${setters === 1 ? 'person' : 'people'}. At least ${MIN_ALARM_SETTERS} are recommended so that someone always answers.`,
      cn: `${d.name}（${d.serial}）的报警只通知 ${setters} 人，建议至少设置 ${MIN_ALARM_SETTERS} 名报警接收人，确保有人及时处理。`,
    },
  };
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

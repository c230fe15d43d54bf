import { inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  addMember,
  buildCompany,
  buildDepartment,
  buildDevice,
  buildRole,
  buildUser,
  login,
} from '../../test/factories';
import { alarmNotifications, alarmRecords } from '../alarms/alarms.table';
import { creditLedger } from '../delivery/delivery.table';
import { devices } from '../devices/devices.table';
import { readingsHourly } from '../telemetry/readings.table';

const HOUR = 3_600_000;
const MINUTE = 60_000;
/** `YYYY-MM-DDTHH:mm` in Shanghai (UTC+8, no daylight saving) as epoch ms. */
export const shanghai = (local: string) => Date.parse(`${local}:00+08:00`);

/** The week the figures are hand-computed for: 1-8 March 2026 in Shanghai. */
export const WEEK = { startTime: shanghai('2026-03-01T00:00'), endTime: shanghai('2026-03-08T00:00') };
/** The statistics are asked a day after the week, so every device was expected all week (168 hours). */
export const NOW = WEEK.endTime + 24 * HOUR;

/**
 * Company A: Pharmacy with Cold room below it, and Lab; one monitor in each (d1, d2, d3), bound
 * long before the week (168 hours expected in the week). Company B
 * has a monitor with an alarm, a notification and a debit in the same week, which A never counts.
 *
 * Alarms of A (Shanghai times), minutes to resolve:
 *   a1 d1 overLimit L1 03-02 01:00 (17:00 UTC the day before) resolved after 10
 *   a2 d1 offline   L2 03-02 10:00 resolved after 30
 *   a3 d2 overLimit L1 03-03 12:00 resolved after 50
 *   a4 d2 preAlarm  L3 03-03 13:00 still pending
 *   a5 d3 powerOff  L2 03-05 08:00 resolved after 20
 *   a6 d1 overLimit L1 02-28 23:00 before the week
 *   a7 d3 overLimit L1 03-08 00:00 at the week's end (excluded: the end is exclusive)
 */
export async function buildStatisticsFixture(app: FastifyInstance) {
  const db = app.db;
  const company = await buildCompany(db, { name: 'Statistics Co' });
  const pharmacy = await buildDepartment(db, company.id, { name: 'Pharmacy' });
  const coldRoom = await buildDepartment(db, company.id, { name: 'Cold room', parentId: pharmacy.id });
  const lab = await buildDepartment(db, company.id, { name: 'Lab' });
  const d1 = await buildDevice(db, company.id, { departmentId: pharmacy.id, name: 'Pharmacy fridge' });
  const d2 = await buildDevice(db, company.id, { departmentId: coldRoom.id, name: 'Cold room logger' });
  const d3 = await buildDevice(db, company.id, { departmentId: lab.id, name: 'Lab freezer' });
  const other = await buildCompany(db, { name: 'Other Co' });
  const foreign = await buildDevice(db, other.id, { name: 'Foreign fridge' });
  await db
    .update(devices)
    .set({ createdAt: new Date('2026-01-01T00:00:00Z') })
    .where(
      inArray(
        devices.id,
        [d1, d2, d3, foreign].map((d) => Number(d.id)),
      ),
    );

  let n = 0;
  const alarm = async (
    device: { id: string; sensors: { id: number }[] },
    companyId: number,
    alarmType: string,
    level: number,
    at: number,
    resolvedAfterMinutes: number | null,
  ) => {
    const [row] = await db
      .insert(alarmRecords)
      .values({
        companyId,
        deviceId: Number(device.id),
        sensorId: device.sensors[0]!.id,
        alarmType,
        level,
        alarmTime: new Date(at),
        excursionStart: new Date(at),
        dedupeKey: `statistics:${device.id}:${++n}`,
        content: { en: 'Alarm', cn: '报警' },
        resolveState: resolvedAfterMinutes === null ? 1 : 3,
        resolveTime: resolvedAfterMinutes === null ? null : new Date(at + resolvedAfterMinutes * MINUTE),
      })
      .returning();
    return row!.id;
  };
  const a1 = await alarm(d1, company.id, 'overLimit', 1, shanghai('2026-03-02T01:00'), 10);
  await alarm(d1, company.id, 'offline', 2, shanghai('2026-03-02T10:00'), 30);
  await alarm(d2, company.id, 'overLimit', 1, shanghai('2026-03-03T12:00'), 50);
  await alarm(d2, company.id, 'preAlarm', 3, shanghai('2026-03-03T13:00'), null);
  const a5 = await alarm(d3, company.id, 'powerOff', 2, shanghai('2026-03-05T08:00'), 20);
  const a6 = await alarm(d1, company.id, 'overLimit', 1, shanghai('2026-02-28T23:00'), 5);
  await alarm(d3, company.id, 'overLimit', 1, WEEK.endTime, null);
  const foreignAlarm = await alarm(foreign, other.id, 'overLimit', 1, shanghai('2026-03-02T01:00'), 15);

  // Notifications: six of the week's alarms of A (a1 on every channel, a5 by WhatsApp), two of a6, one of B.
  const notify = async (
    companyId: number,
    alarmId: number,
    userId: number,
    channel: string,
    status: string,
    at: number,
  ) => {
    const [row] = await db
      .insert(alarmNotifications)
      .values({ companyId, alarmId, userId, channel, status, level: 1, createdAt: new Date(at) })
      .returning();
    return row!.id;
  };
  const t1 = shanghai('2026-03-02T01:00');
  const admin = company.admin.id;
  await notify(company.id, a1, admin, 'email', 'delivered', t1);
  const smsSent = await notify(company.id, a1, admin, 'sms', 'sent', t1);
  const smsFailed = await notify(company.id, a1, admin, 'sms', 'failed', t1);
  await notify(company.id, a1, admin, 'call', 'no credit', t1);
  await notify(company.id, a1, admin, 'wechat', 'retrying', t1);
  const whatsapp = await notify(company.id, a5, admin, 'whatsapp', 'delivered', shanghai('2026-03-05T08:00'));
  await notify(company.id, a6, admin, 'email', 'delivered', shanghai('2026-02-28T23:00'));
  // A reminder of a6 written during the week belongs to a6, an alarm of the week before.
  await notify(company.id, a6, admin, 'sms', 'delivered', t1);
  const foreignSms = await notify(other.id, foreignAlarm, other.admin.id, 'sms', 'sent', t1);

  // Credits: sms 2 (kept), sms 1 refunded two days later, WhatsApp 1; a grant and B's debit not counted.
  const ledger = (
    companyId: number,
    kind: 'grant' | 'debit' | 'refund',
    amount: number,
    at: number,
    notificationId?: number,
    channel?: string,
  ) =>
    db
      .insert(creditLedger)
      .values({ companyId, kind, amount, notificationId, channel, createdAt: new Date(at) });
  await ledger(company.id, 'grant', 100, WEEK.startTime + HOUR);
  await ledger(company.id, 'debit', -2, t1 + MINUTE, smsSent, 'sms');
  await ledger(company.id, 'debit', -1, t1 + MINUTE, smsFailed, 'sms');
  await ledger(company.id, 'refund', 1, shanghai('2026-03-04T09:00'), smsFailed, 'sms');
  await ledger(company.id, 'debit', -1, shanghai('2026-03-05T08:01'), whatsapp, 'whatsapp');
  await ledger(other.id, 'debit', -5, t1 + MINUTE, foreignSms, 'sms');

  // Hours with readings: d1 half the week (84), d2 all of it, d3 none; one hour of d1 before the week.
  const hours = (sensorId: number, count: number, from: number) =>
    Array.from({ length: count }, (_, i) => {
      const bucket = new Date(from + i * HOUR);
      return { sensorId, bucket, n: 12, sum: 60, expsum: 0, min: 5, minTs: bucket, max: 5, maxTs: bucket };
    });
  await db.insert(readingsHourly).values(hours(d1.sensors[0]!.id, 84, WEEK.startTime));
  await db.insert(readingsHourly).values(hours(d1.sensors[0]!.id, 1, WEEK.startTime - HOUR));
  await db.insert(readingsHourly).values(hours(d2.sensors[0]!.id, 168, WEEK.startTime));
  await db.insert(readingsHourly).values(hours(foreign.sensors[0]!.id, 168, WEEK.startTime));

  /** A member of `department` holding `tags` (statistics:view unless left out). */
  const member = async (department: { id: number }, tags: string[]) => {
    const role = await buildRole(db, company.id, department.id, tags);
    const user = await buildUser(db);
    await addMember(db, company.id, user.id, false, { departmentId: department.id, roleId: role.id });
    return login(app, user.account);
  };
  return {
    company,
    other,
    departments: { pharmacy, coldRoom, lab },
    devices: { d1, d2, d3, foreign },
    tokens: { admin: await login(app, company.admin.account), other: await login(app, other.admin.account) },
    member,
  };
}

export type StatisticsFixture = Awaited<ReturnType<typeof buildStatisticsFixture>>;

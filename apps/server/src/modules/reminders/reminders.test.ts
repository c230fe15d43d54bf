import { and, eq, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/build-app';
import { addMember, buildCompany, buildDevice, buildUser } from '../../test/factories';
import { alarmSettings } from '../alarms/alarms.table';
import { grantCredit } from '../delivery/credits.service';
import { devices } from '../devices/devices.table';
import { notices } from '../notices/notices.table';
import { runReminderSweep } from './reminder-sweep';

const DAY = 86_400_000;

describe('reminders as notices', () => {
  const ctx = useTestApp();

  async function noticesOf(companyId: number, userId: number) {
    return ctx.app.db
      .select()
      .from(notices)
      .where(and(eq(notices.companyId, companyId), eq(notices.userId, userId)));
  }

  /** An over-limit setting of a device's sensor that notifies `notifierIds`. */
  const settingRow = (
    companyId: number,
    deviceId: number,
    sensorId: number,
    notifierIds: number[],
  ): typeof alarmSettings.$inferInsert => ({
    companyId,
    carrier: 'sensor',
    targetId: sensorId,
    deviceId,
    sensorId,
    level: 1,
    alarmType: 'overLimit',
    min: 2,
    max: 8,
    repeat: 1,
    channels: ['email'],
    notifierIds,
  });

  async function settingWithNotifiers(
    companyId: number,
    deviceId: number,
    sensorId: number,
    notifierIds: number[],
  ) {
    await ctx.app.db.insert(alarmSettings).values(settingRow(companyId, deviceId, sensorId, notifierIds));
  }

  it('tells administrators once that a device expires within 30 days, again after a renewal moves the date', async () => {
    const company = await buildCompany(ctx.app.db);
    const member = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, company.id, member.id);
    const device = await buildDevice(ctx.app.db, company.id, { name: 'Freezer A' });
    const now = new Date();
    const soon = new Date(now.getTime() + 10 * DAY);
    await ctx.app.db
      .update(devices)
      .set({ expireTime: soon })
      .where(eq(devices.id, Number(device.id)));

    await runReminderSweep(ctx.app.db, now);
    await runReminderSweep(ctx.app.db, now);
    const told = (await noticesOf(company.id, company.admin.id)).filter(
      (n) => n.kind === 'reminder.deviceExpiry',
    );
    expect(told).toHaveLength(1);
    expect(told[0]!.content.en).toContain(
      `Freezer A (${device.serial}) expires on ${soon.toISOString().slice(0, 10)}`,
    );
    expect(told[0]!.title.cn).toBe('设备服务即将到期');
    // Members without administration are not told; reminders cost no credit.
    expect(await noticesOf(company.id, member.id)).toHaveLength(0);

    // Far from expiry: nothing. After a renewal to a date that again comes near: told again.
    const far = new Date(now.getTime() + 200 * DAY);
    await ctx.app.db
      .update(devices)
      .set({ expireTime: far })
      .where(eq(devices.id, Number(device.id)));
    await runReminderSweep(ctx.app.db, now);
    expect(
      (await noticesOf(company.id, company.admin.id)).filter((n) => n.kind === 'reminder.deviceExpiry'),
    ).toHaveLength(1);
    await runReminderSweep(ctx.app.db, new Date(far.getTime() - 5 * DAY));
    expect(
      (await noticesOf(company.id, company.admin.id)).filter((n) => n.kind === 'reminder.deviceExpiry'),
    ).toHaveLength(2);
  });

  it('reminds when the alarms of a device reach fewer than 3 people, not when 3 do', async () => {
    const company = await buildCompany(ctx.app.db);
    const few = await buildDevice(ctx.app.db, company.id, { name: 'Fridge few' });
    const enough = await buildDevice(ctx.app.db, company.id, { name: 'Fridge enough' });
    const people = [company.admin.id];
    for (let i = 0; i < 2; i++) {
      const u = await buildUser(ctx.app.db);
      await addMember(ctx.app.db, company.id, u.id);
      people.push(u.id);
    }
    await settingWithNotifiers(company.id, Number(few.id), few.sensors[0]!.id, [people[0]!, people[1]!]);
    // Three distinct people over two settings count as three.
    await settingWithNotifiers(company.id, Number(enough.id), enough.sensors[0]!.id, [
      people[0]!,
      people[1]!,
    ]);
    await settingWithNotifiers(company.id, Number(enough.id), enough.sensors[0]!.id, [people[2]!]);

    await runReminderSweep(ctx.app.db);
    const told = (await noticesOf(company.id, company.admin.id)).filter(
      (n) => n.kind === 'reminder.fewAlarmSetters',
    );
    expect(told.map((n) => n.content.en)).toEqual([
      expect.stringContaining(`Alarms of Fridge few (${few.serial}) reach 2 people. At least 3`),
    ]);
    await runReminderSweep(ctx.app.db);
    expect(
      (await noticesOf(company.id, company.admin.id)).filter((n) => n.kind === 'reminder.fewAlarmSetters'),
    ).toHaveLength(1);
  });

  it('warns of low credit once a day, and not when the balance is comfortable', async () => {
    const low = await buildCompany(ctx.app.db);
    const rich = await buildCompany(ctx.app.db);
    await grantCredit(ctx.app.db, low.id, 5);
    await grantCredit(ctx.app.db, rich.id, 500);
    const day = new Date('2026-11-21T08:00:00Z');
    await runReminderSweep(ctx.app.db, day);
    await runReminderSweep(ctx.app.db, new Date(day.getTime() + 3_600_000));
    const told = (await noticesOf(low.id, low.admin.id)).filter((n) => n.kind === 'reminder.lowCredit');
    expect(told).toHaveLength(1);
    expect(told[0]!.content.en).toContain('Only 5 message credits are left');
    expect(told[0]!.title.cn).toBe('消息余额不足');
    expect(
      (await noticesOf(rich.id, rich.admin.id)).filter((n) => n.kind === 'reminder.lowCredit'),
    ).toHaveLength(0);
    await runReminderSweep(ctx.app.db, new Date(day.getTime() + DAY));
    expect(
      (await noticesOf(low.id, low.admin.id)).filter((n) => n.kind === 'reminder.lowCredit'),
    ).toHaveLength(2);
  });

  it('sends the reminders of a whole fleet in a few statements, each once, to the right people', async () => {
    // 230 devices with too few alarm recipients (more than one statement's worth) and, in another
    // company, a device whose reminder goes to the people who may see it.
    const fleet = await buildCompany(ctx.app.db);
    const built = await Promise.all(
      Array.from({ length: 230 }, (_, i) => buildDevice(ctx.app.db, fleet.id, { name: `Fridge ${i}` })),
    );
    await ctx.app.db
      .insert(alarmSettings)
      .values(built.map((d) => settingRow(fleet.id, Number(d.id), d.sensors[0]!.id, [fleet.admin.id])));
    const other = await buildCompany(ctx.app.db);
    const expiring = await buildDevice(ctx.app.db, other.id, { name: 'Cold room "B", left' });
    const now = new Date();
    await ctx.app.db
      .update(devices)
      .set({ expireTime: new Date(now.getTime() + 3 * DAY) })
      .where(eq(devices.id, Number(expiring.id)));

    const dialect = new PgDialect();
    const claims: string[] = [];
    const reads: string[] = [];
    const execute = ctx.app.db.execute;
    ctx.app.db.execute = ((query: SQL) => {
      const { sql: text, params } = dialect.sqlToQuery(query);
      if (text.includes('insert into "reminders_sent"')) claims.push(JSON.stringify(params));
      if (text.includes('join alarm_settings s')) reads.push(text);
      return execute.call(ctx.app.db, query);
    }) as typeof ctx.app.db.execute;
    const sweep = () => runReminderSweep(ctx.app.db, now, 50);
    try {
      // The devices are read 50 at a time: no device is lost or read twice at a range's edge.
      expect(await sweep()).toBeGreaterThanOrEqual(231);
      // Every reminder of the sweep in statements of 200 (other tests' companies may add a few).
      expect(claims.length).toBeGreaterThanOrEqual(2);
      expect(claims.length).toBeLessThanOrEqual(4);
      expect(reads.length).toBeGreaterThanOrEqual(5);
      expect(claims.join()).toContain('fewSetters:');
      // Sent once: a second sweep's reads leave out the devices' reminders sent, so none is
      // claimed again (other kinds, the day's low credit, are claimed and found sent).
      claims.length = 0;
      expect(await sweep()).toBe(0);
      expect(claims.join()).not.toMatch(/fewSetters:|deviceExpiry:/);
    } finally {
      ctx.app.db.execute = execute;
    }

    const fleetNotices = (await noticesOf(fleet.id, fleet.admin.id)).filter(
      (n) => n.kind === 'reminder.fewAlarmSetters',
    );
    expect(fleetNotices).toHaveLength(230);
    expect(new Set(fleetNotices.map((n) => n.content.en)).size).toBe(230);
    const expiry = (await noticesOf(other.id, other.admin.id)).filter(
      (n) => n.kind === 'reminder.deviceExpiry',
    );
    expect(expiry.map((n) => n.content.en)).toEqual([
      expect.stringContaining(`Cold room "B", left (${expiring.serial})`),
    ]);
    expect(expiry[0]!.title.cn).toBe('设备服务即将到期');

    expect(
      (await noticesOf(fleet.id, fleet.admin.id)).filter((n) => n.kind === 'reminder.fewAlarmSetters'),
    ).toHaveLength(230);
    expect(
      (await noticesOf(other.id, other.admin.id)).filter((n) => n.kind === 'reminder.deviceExpiry'),
    ).toHaveLength(1);
  });
});

import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/build-app';
import {
  addMember,
  buildCompany,
  buildDepartment,
  buildDevice,
  buildRole,
  buildUser,
} from '../../test/factories';
import { notices } from '../notices/notices.table';
import { runReminderSweep } from '../reminders/reminder-sweep';
import { deviceCalibrations } from './calibration.table';

const DAY = 86_400_000;
const KIND = 'reminder.calibrationDue';

describe('calibration due reminders', () => {
  const ctx = useTestApp();

  async function calibrationNotices(companyId: number, userId: number) {
    const rows = await ctx.app.db
      .select()
      .from(notices)
      .where(and(eq(notices.companyId, companyId), eq(notices.userId, userId)));
    return rows.filter((n) => n.kind === KIND);
  }

  async function calibrate(companyId: number, deviceId: string, calibratedAt: Date, nextDueAt: Date) {
    await ctx.app.db.insert(deviceCalibrations).values({
      companyId,
      deviceId: Number(deviceId),
      calibratedAt,
      nextDueAt,
      institution: 'Metrology Institute',
    });
  }

  it('tells the people who may see the device once, within 30 days of the due date', async () => {
    const company = await buildCompany(ctx.app.db);
    const pharmacy = await buildDepartment(ctx.app.db, company.id, { name: 'Pharmacy' });
    const store = await buildDepartment(ctx.app.db, company.id, { name: 'Cold Store' });
    const person = async (departmentId: number, tags: string[]) => {
      const role = await buildRole(ctx.app.db, company.id, departmentId, tags);
      const user = await buildUser(ctx.app.db);
      await addMember(ctx.app.db, company.id, user.id, false, { departmentId, roleId: role.id });
      return user.id;
    };
    const viewer = await person(pharmacy.id, ['device:view']);
    const elsewhere = await person(store.id, ['device:view']);
    const noDeviceRight = await person(pharmacy.id, ['alarm:view']);
    const device = await buildDevice(ctx.app.db, company.id, {
      name: 'Vaccine fridge',
      departmentId: pharmacy.id,
    });
    const now = new Date('2026-11-21T08:00:00Z');
    const due = new Date('2027-01-15T00:00:00Z'); // 55 days ahead
    await calibrate(company.id, device.id, new Date('2026-01-15T00:00:00Z'), due);

    // 31 days before: not yet.
    await runReminderSweep(ctx.app.db, now);
    await runReminderSweep(ctx.app.db, new Date(due.getTime() - 31 * DAY));
    expect(await calibrationNotices(company.id, company.admin.id)).toHaveLength(0);

    // Inside 30 days: told once, however often the sweep runs.
    const inWindow = new Date(due.getTime() - 29 * DAY);
    await runReminderSweep(ctx.app.db, inWindow);
    await runReminderSweep(ctx.app.db, new Date(inWindow.getTime() + 3_600_000));
    await runReminderSweep(ctx.app.db, new Date(due.getTime() + DAY));
    const told = await calibrationNotices(company.id, viewer);
    expect(told).toHaveLength(1);
    expect(told[0]!.content.en).toBe(
      `The calibration of Vaccine fridge (${device.serial}) is due on 2027-01-15. Arrange the calibration in time.`,
    );
    expect(told[0]!.title).toEqual({ en: 'Calibration due soon', cn: '校准即将到期' });
    expect(told[0]!.content.cn).toContain('2027-01-15 到期');
    expect(await calibrationNotices(company.id, company.admin.id)).toHaveLength(1);
    expect(await calibrationNotices(company.id, elsewhere)).toHaveLength(0);
    expect(await calibrationNotices(company.id, noDeviceRight)).toHaveLength(0);
  });

  it('follows the latest calibration: a new one silences the old date and is reminded in its turn', async () => {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id, { name: 'Cold room' });
    const now = new Date('2026-11-21T08:00:00Z');
    // Overdue before it is recalibrated: the older record alone would be reminded.
    await calibrate(
      company.id,
      device.id,
      new Date('2025-11-01T00:00:00Z'),
      new Date('2026-11-01T00:00:00Z'),
    );
    await calibrate(
      company.id,
      device.id,
      new Date('2026-11-10T00:00:00Z'),
      new Date('2027-11-10T00:00:00Z'),
    );
    await runReminderSweep(ctx.app.db, now);
    expect(await calibrationNotices(company.id, company.admin.id)).toHaveLength(0);

    await runReminderSweep(ctx.app.db, new Date('2027-10-20T08:00:00Z'));
    const told = await calibrationNotices(company.id, company.admin.id);
    expect(told.map((n) => n.content.en)).toEqual([expect.stringContaining('is due on 2027-11-10')]);

    // Not recalibrated: once overdue, the same due date is not told again.
    await runReminderSweep(ctx.app.db, new Date('2027-11-20T08:00:00Z'));
    expect(await calibrationNotices(company.id, company.admin.id)).toHaveLength(1);
  });

  it('says "overdue" when the first sweep finds the date already passed', async () => {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id, { name: 'Freezer' });
    await calibrate(
      company.id,
      device.id,
      new Date('2025-06-01T00:00:00Z'),
      new Date('2026-06-01T00:00:00Z'),
    );
    await runReminderSweep(ctx.app.db, new Date('2026-11-21T08:00:00Z'));
    const [told] = await calibrationNotices(company.id, company.admin.id);
    expect(told?.title).toEqual({ en: 'Calibration overdue', cn: '校准已过期' });
    expect(told?.content.en).toContain('was due on 2026-06-01');
  });
});

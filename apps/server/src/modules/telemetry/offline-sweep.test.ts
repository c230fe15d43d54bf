import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/build-app';
import { buildCompany, buildDevice } from '../../test/factories';
import { devices } from '../devices/devices.table';
import { sweepOfflineDevices } from './offline-sweep';

describe('offline sweep', () => {
  const ctx = useTestApp();

  it('marks a device offline once upload interval x offline judgement has passed, not before', async () => {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id);
    const lastSeen = new Date('2026-11-21T10:00:00Z');
    // Upload every 300 s, offline after 3 missed uploads: 15 minutes.
    await ctx.app.db
      .update(devices)
      .set({ state: 1, lastSeenAt: lastSeen })
      .where(eq(devices.serial, device.serial));
    expect(await sweepOfflineDevices(ctx.app.db, new Date(lastSeen.getTime() + 14 * 60_000))).toEqual([]);
    const gone = await sweepOfflineDevices(ctx.app.db, new Date(lastSeen.getTime() + 16 * 60_000));
    // Stamped with when it was due (last contact + 15 min), not with when the sweep saw it.
    expect(gone).toEqual([
      {
        id: Number(device.id),
        companyId: company.id,
        serial: device.serial,
        dueAt: lastSeen.getTime() + 15 * 60_000,
      },
    ]);
    const [row] = await ctx.app.db.select().from(devices).where(eq(devices.serial, device.serial));
    expect(row!.state).toBe(4);
    // Already offline: not reported twice.
    expect(await sweepOfflineDevices(ctx.app.db, new Date(lastSeen.getTime() + 60 * 60_000))).toEqual([]);
  });

  it('leaves devices in service alone', async () => {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id);
    await ctx.app.db
      .update(devices)
      .set({ state: 5, lastSeenAt: new Date('2020-01-01T00:00:00Z') })
      .where(eq(devices.serial, device.serial));
    expect(await sweepOfflineDevices(ctx.app.db)).toEqual([]);
  });
});

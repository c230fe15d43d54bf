import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { useTestApp } from '../../test/build-app';
import { buildCompany, buildDevice } from '../../test/factories';
import { devices } from '../devices/devices.table';
import { DeviceDirectory, type DirectoryTiming } from './device-directory';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('device directory (ingest look-ups of serials)', () => {
  const ctx = useTestApp();
  const directories: DeviceDirectory[] = [];
  const directory = (timing?: DirectoryTiming) => {
    const d = new DeviceDirectory(ctx.app.db, timing);
    directories.push(d);
    return d;
  };
  afterAll(() => {
    for (const d of directories) d.close();
  });

  it('answers serials asked for together (a fleet reconnecting) each with its own device, its sensors, or null', async () => {
    const company = await buildCompany(ctx.app.db);
    const fleet = await Promise.all(
      [1, 2, 3].map(() =>
        buildDevice(ctx.app.db, company.id, {
          channels: [
            { type: 'temperature', unit: '°C', min: -40, max: 85 },
            { type: 'humidity', unit: '%', min: 0, max: 100 },
          ],
        }),
      ),
    );
    const dir = directory();
    // A made-up serial with a lone surrogate is refused alone: it must not spoil the others' look-up.
    const asked = [...fleet.map((d) => d.serial), 'NO-SUCH-SERIAL', 'BAD\uD800', `it's "odd", {x}`];
    const found = await Promise.all(asked.map((serial) => dir.find(serial)));
    for (const [i, device] of fleet.entries()) {
      expect(found[i]).toMatchObject({ id: Number(device.id), companyId: company.id, serial: device.serial });
      expect([...found[i]!.sensorIds]).toEqual(device.sensors.map((s) => [s.channel, s.id]));
    }
    expect(found.slice(3)).toEqual([null, null, null]);
    // A key check answers from the cache, and refuses a wrong key.
    expect(await dir.authenticate(fleet[0]!.serial, fleet[0]!.deviceKey)).toMatchObject({
      id: Number(fleet[0]!.id),
    });
    expect(await dir.authenticate(fleet[0]!.serial, 'wrong')).toBeNull();
  });

  it('serials asked for while a read is in flight (a fleet reconnecting over seconds) wait for it and go in one read together', async () => {
    const company = await buildCompany(ctx.app.db);
    const fleet = await Promise.all([1, 2, 3, 4].map(() => buildDevice(ctx.app.db, company.id)));
    const dir = directory();
    type Read = (serials: string[]) => Promise<Map<string, unknown>>;
    const target = dir as unknown as { read: Read };
    const original = target.read.bind(dir);
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const reads = vi.spyOn(target, 'read').mockImplementation(async (serials) => {
      // The first read is slow, as behind a write of the embedded database.
      if (reads.mock.calls.length === 1) await gate;
      return original(serials);
    });
    const first = dir.find(fleet[0]!.serial);
    await new Promise((r) => setImmediate(r));
    expect(reads).toHaveBeenCalledTimes(1);
    // The others arrive each in a turn of its own while the first read waits.
    const later: Promise<unknown>[] = [];
    for (const device of fleet.slice(1)) {
      later.push(dir.find(device.serial));
      await new Promise((r) => setImmediate(r));
    }
    expect(reads).toHaveBeenCalledTimes(1);
    release();
    const found = await Promise.all([first, ...later]);
    expect(found.map((d) => (d as { id: number } | null)?.id)).toEqual(fleet.map((d) => Number(d.id)));
    expect(reads.mock.calls.map(([serials]) => serials)).toEqual([
      [fleet[0]!.serial],
      fleet.slice(1).map((d) => d.serial),
    ]);
  });

  it('a disposed device (state 6) is not found', async () => {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id);
    await ctx.app.db
      .update(devices)
      .set({ state: 6 })
      .where(eq(devices.id, Number(device.id)));
    expect(await directory().find(device.serial)).toBeNull();
  });

  describe('entries in use are read again before they expire', () => {
    // A refresh is due 2 x refreshEveryMs before an entry expires. That slack is 800 ms here: with
    // 200 ms, a refresh delayed by a loaded CI machine (two test lanes on 2 cores) let the entry
    // expire, and the device waited for a read after all.
    const timing = { ttlMs: 2_000, refreshEveryMs: 400, idleMs: 1_500 };
    /** How many times a message had to wait for a read of its own (a miss). */
    const countMisses = (dir: DeviceDirectory) =>
      vi.spyOn(dir as unknown as { load: (batch: unknown) => Promise<void> }, 'load');

    it('a device sending steadily never waits for a read, and sees a change made elsewhere within the life of an entry', async () => {
      const company = await buildCompany(ctx.app.db);
      const device = await buildDevice(ctx.app.db, company.id);
      const dir = directory(timing);
      const misses = countMisses(dir);
      expect(await dir.find(device.serial)).toMatchObject({ id: Number(device.id) });
      expect(misses).toHaveBeenCalledTimes(1);
      // Another instance rotates the key: no change event reaches this one.
      await ctx.app.db
        .update(devices)
        .set({ keyHash: 'rotated-elsewhere' })
        .where(eq(devices.id, Number(device.id)));
      const until = Date.now() + 3 * timing.ttlMs;
      let sawRotation = 0;
      const changedAt = Date.now();
      while (Date.now() < until) {
        const found = await dir.find(device.serial);
        if (!sawRotation && found?.keyHash === 'rotated-elsewhere') sawRotation = Date.now();
        await sleep(50);
      }
      expect(misses).toHaveBeenCalledTimes(1);
      expect(sawRotation).toBeGreaterThan(0);
      expect(sawRotation - changedAt).toBeLessThanOrEqual(timing.ttlMs + timing.refreshEveryMs);
    });

    it('a refresh keeps the cached device when the read says the same, and takes what changed', async () => {
      const company = await buildCompany(ctx.app.db);
      const device = await buildDevice(ctx.app.db, company.id);
      // Refreshed by hand: every entry is within the refresh's horizon, and the timer waits 5 s.
      const dir = directory({ ttlMs: 2_000, refreshEveryMs: 5_000, idleMs: 60_000 });
      const first = await dir.find(device.serial);
      await dir.refreshDue();
      // The same object, not an equal copy: a fleet's directory re-read every half minute
      // would otherwise be garbage in the old generation (docs/performance.md).
      expect(await dir.find(device.serial)).toBe(first);
      await ctx.app.db
        .update(devices)
        .set({ uploadIntervalS: 120 })
        .where(eq(devices.id, Number(device.id)));
      await dir.refreshDue();
      const changed = await dir.find(device.serial);
      expect(changed).not.toBe(first);
      expect(changed).toMatchObject({ id: Number(device.id), uploadIntervalS: 120 });
      expect(changed!.sensorIds).toEqual(first!.sensorIds);
    });

    it('an entry left unused is not read again and expires', async () => {
      const company = await buildCompany(ctx.app.db);
      const device = await buildDevice(ctx.app.db, company.id);
      const dir = directory(timing);
      const misses = countMisses(dir);
      await dir.find(device.serial);
      await sleep(timing.idleMs + timing.ttlMs + 3 * timing.refreshEveryMs);
      await dir.find(device.serial);
      expect(misses).toHaveBeenCalledTimes(2);
    });
  });
});

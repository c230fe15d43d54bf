import type { HistoryData, OrderView, ServiceLapsesView } from '@coldchain/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { translate } from '../../i18n/messages';
import { call, useTestApp } from '../../test/build-app';
import {
  addMember,
  buildCompany,
  buildDepartment,
  buildDevice,
  buildRole,
  buildUser,
  login,
} from '../../test/factories';
import { approveOrder, rejectOrder } from '../billing/order-decisions';
import { devices } from '../devices/devices.table';
import { readings } from '../telemetry/readings.table';
import { hiddenRanges } from './hidden-ranges';
import { serviceLapses } from './service-lapses.table';
import { inRanges, mergeRanges, subtractRanges } from './time-ranges';

const DAY = 86_400_000;

describe('time ranges', () => {
  it('merges overlapping and touching ranges and drops empty ones', () => {
    expect(
      mergeRanges([
        [10, 20],
        [0, 5],
        [5, 8],
        [15, 30],
        [40, 40],
      ]),
    ).toEqual([
      [0, 8],
      [10, 30],
    ]);
  });

  it('subtracts: inside, over an edge, over the whole, and not at all', () => {
    const lapse: [number, number][] = [[100, 200]];
    expect(subtractRanges(lapse, [[120, 150]])).toEqual([
      [100, 120],
      [150, 200],
    ]);
    expect(subtractRanges(lapse, [[50, 130]])).toEqual([[130, 200]]);
    expect(subtractRanges(lapse, [[180, 400]])).toEqual([[100, 180]]);
    expect(subtractRanges(lapse, [[0, 1000]])).toEqual([]);
    expect(subtractRanges(lapse, [[200, 300]])).toEqual([[100, 200]]);
    expect(
      subtractRanges(
        [
          [0, 10],
          [20, 30],
        ],
        [[5, 25]],
      ),
    ).toEqual([
      [0, 5],
      [25, 30],
    ]);
  });

  it('finds an instant in half-open ranges', () => {
    const ranges: [number, number][] = [
      [0, 10],
      [20, 30],
    ];
    expect([0, 9, 10, 19, 20, 29, 30].map((ms) => inRanges(ranges, ms))).toEqual([
      true,
      true,
      false,
      false,
      true,
      true,
      false,
    ]);
  });
});

describe('lapsed service periods and data recovery', () => {
  const ctx = useTestApp();
  // Real past times: a recovery period must lie in the past when it is ordered.
  const expiredAt = Date.now() - 100 * DAY;
  const renewedAt = Date.now() - 60 * DAY;

  async function companyWithDevices(n: number) {
    const company = await buildCompany(ctx.app.db);
    const list: number[] = [];
    for (let i = 0; i < n; i++) list.push(Number((await buildDevice(ctx.app.db, company.id)).id));
    return { company, ids: list, token: await login(ctx.app, company.admin.account) };
  }

  const setExpiry = (id: number, ms: number) =>
    ctx.app.db
      .update(devices)
      .set({ expireTime: new Date(ms) })
      .where(eq(devices.id, id));

  async function renew(token: string, ids: number[], at: number, months = 12) {
    const placed = await call<OrderView>(
      ctx.app,
      '/api/device/monitoringDevicePay',
      { deviceIds: ids.map(String), months },
      { token },
    );
    expect(placed.body.msgCode, placed.body.msgContent).toBe(200);
    await approveOrder(ctx.app.db, Number(placed.body.data.id), new Date(at));
  }

  async function placeRecovery(token: string, ids: number[], startTime: number, endTime: number) {
    const placed = await call<OrderView>(
      ctx.app,
      '/api/device/monitoringDeviceRecovery',
      { deviceIds: ids.map(String), startTime, endTime },
      { token },
    );
    expect(placed.body.msgCode, placed.body.msgContent).toBe(200);
    return Number(placed.body.data.id);
  }

  /** A device whose service lapsed at `expiredAt` and came back with a renewal at `renewedAt`. */
  async function lateRenewedDevice() {
    const setup = await companyWithDevices(1);
    const id = setup.ids[0]!;
    await setExpiry(id, expiredAt);
    await renew(setup.token, [id], renewedAt);
    return { ...setup, id };
  }

  it('records the lapse when a renewal is approved after the expiry, and none for a running device', async () => {
    const { ids, token } = await companyWithDevices(2);
    const [lapsed, running] = ids as [number, number];
    await setExpiry(lapsed, expiredAt);
    await setExpiry(running, renewedAt + 10 * DAY);
    await renew(token, [lapsed, running], renewedAt);

    const rows = await ctx.app.db.select().from(serviceLapses).where(eq(serviceLapses.deviceId, lapsed));
    expect(rows.map((r) => [r.lapsedFrom.getTime(), r.lapsedUntil?.getTime()])).toEqual([
      [expiredAt, renewedAt],
    ]);
    expect(await ctx.app.db.select().from(serviceLapses).where(eq(serviceLapses.deviceId, running))).toEqual(
      [],
    );
    const hidden = await hiddenRanges(ctx.app.db, [lapsed, running]);
    expect(hidden.get(lapsed)).toEqual([[expiredAt, renewedAt]]);
    expect(hidden.get(running)).toEqual([]);
  });

  it('hides an expired device from its expiry up to now; a running or unknown device hides nothing', async () => {
    const { ids } = await companyWithDevices(2);
    const [expired, running] = ids as [number, number];
    await setExpiry(expired, expiredAt);
    const now = new Date();
    const hidden = await hiddenRanges(ctx.app.db, [expired, running, 999_999_999], now);
    expect(hidden.get(expired)).toEqual([[expiredAt, now.getTime()]]);
    expect(hidden.get(running)).toEqual([]);
    expect(hidden.get(999_999_999)).toEqual([]);
    expect((await hiddenRanges(ctx.app.db, [])).size).toBe(0);
  });

  it('an approved recovery un-hides its period; pending or rejected ones do not', async () => {
    const { id, token } = await lateRenewedDevice();
    const whole = await placeRecovery(token, [id], expiredAt, renewedAt);
    expect((await hiddenRanges(ctx.app.db, [id])).get(id)).toEqual([[expiredAt, renewedAt]]);
    await rejectOrder(ctx.app.db, whole);
    expect((await hiddenRanges(ctx.app.db, [id])).get(id)).toEqual([[expiredAt, renewedAt]]);
    await approveOrder(ctx.app.db, await placeRecovery(token, [id], expiredAt, renewedAt));
    expect((await hiddenRanges(ctx.app.db, [id])).get(id)).toEqual([]);
  });

  it('a recovery overlapping part of a lapse leaves the rest hidden, and the console call says so', async () => {
    const { id, token } = await lateRenewedDevice();
    // Another device's recovery changes nothing for this one.
    const other = (await companyWithDevices(1)).ids[0]!;
    expect(other).not.toBe(id);
    await approveOrder(
      ctx.app.db,
      await placeRecovery(token, [id], expiredAt + 10 * DAY, expiredAt + 20 * DAY),
    );
    expect((await hiddenRanges(ctx.app.db, [id])).get(id)).toEqual([
      [expiredAt, expiredAt + 10 * DAY],
      [expiredAt + 20 * DAY, renewedAt],
    ]);
    // Starting before the lapse: only the part inside it matters.
    await approveOrder(
      ctx.app.db,
      await placeRecovery(token, [id], expiredAt - 5 * DAY, expiredAt + 15 * DAY),
    );
    expect((await hiddenRanges(ctx.app.db, [id])).get(id)).toEqual([[expiredAt + 20 * DAY, renewedAt]]);

    const res = await call<ServiceLapsesView>(
      ctx.app,
      '/api/device/serviceLapses',
      { deviceId: String(id) },
      { token },
    );
    expect(res.body.msgCode, res.body.msgContent).toBe(200);
    expect(res.body.data.deviceId).toBe(String(id));
    expect(res.body.data.lapses).toEqual([
      {
        startTime: expiredAt,
        endTime: renewedAt,
        open: false,
        recovery: 'partial',
        hidden: [{ startTime: expiredAt + 20 * DAY, endTime: renewedAt }],
      },
    ]);
  });

  it('lists an open lapse as not recovered, then fully recovered after approval', async () => {
    const { ids, token } = await companyWithDevices(1);
    const id = ids[0]!;
    await setExpiry(id, expiredAt);
    const before = await call<ServiceLapsesView>(
      ctx.app,
      '/api/device/serviceLapses',
      { deviceId: id },
      { token },
    );
    const [open] = before.body.data.lapses;
    expect(open).toMatchObject({ startTime: expiredAt, open: true, recovery: 'none' });
    expect(open!.endTime).toBeGreaterThan(Date.now() - 60_000);
    await approveOrder(ctx.app.db, await placeRecovery(token, [id], expiredAt, open!.endTime));
    const after = await call<ServiceLapsesView>(
      ctx.app,
      '/api/device/serviceLapses',
      { deviceId: id },
      { token },
    );
    // Still expired: what arrived after the recovered period stays hidden.
    expect(after.body.data.lapses[0]).toMatchObject({ open: true, recovery: 'partial' });
    expect(after.body.data.lapses[0]!.hidden[0]!.startTime).toBe(open!.endTime);
  });

  it('leaves hidden readings out of the export, and puts them back once recovered', async () => {
    const { id, token } = await lateRenewedDevice();
    const [sensor] = await ctx.app.db.query.sensors.findMany({ where: (s, { eq }) => eq(s.deviceId, id) });
    await ctx.app.db.insert(readings).values([
      { sensorId: sensor!.id, ts: new Date(expiredAt - DAY), value: 1 },
      { sensorId: sensor!.id, ts: new Date(expiredAt), value: 2 },
      { sensorId: sensor!.id, ts: new Date(expiredAt + DAY), value: 3 },
      { sensorId: sensor!.id, ts: new Date(renewedAt), value: 4 },
    ]);
    const exportValues = async () => {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/device/exportData',
        headers: { 'content-type': 'application/json', accessToken: token },
        payload: JSON.stringify({
          deviceIds: [String(id)],
          startTime: expiredAt - 2 * DAY,
          endTime: renewedAt + DAY,
          format: 'csv',
        }),
      });
      expect(response.statusCode).toBe(200);
      return response.body
        .slice(1)
        .trim()
        .split('\r\n')
        .slice(1)
        .map((line) => line.split(',')[5]);
    };
    expect(await exportValues()).toEqual(['1', '4']);
    await approveOrder(ctx.app.db, await placeRecovery(token, [id], expiredAt, renewedAt));
    expect(await exportValues()).toEqual(['1', '2', '3', '4']);
  });

  it('leaves hidden readings out of historyData points and statistics, and shows them once recovered', async () => {
    const { id, token } = await lateRenewedDevice();
    const [device] = await ctx.app.db.select().from(devices).where(eq(devices.id, id));
    const known = (await ctx.app.deviceDirectory.find(device!.serial))!;
    const sensorId = [...known.sensorIds.values()][0]!;
    // Hourly readings from two days before the lapse to two days after the renewal: 1 before,
    // 9 inside the lapse (an excursion that must not show while hidden), 4 after.
    const hours = (from: number, to: number) =>
      Array.from({ length: Math.floor((to - from) / 3_600_000) }, (_, i) => from + i * 3_600_000);
    const records = [
      ...hours(expiredAt - 2 * DAY, expiredAt).map((ts) => ({ ts, v: 1 })),
      ...hours(expiredAt, renewedAt).map((ts) => ({ ts, v: 9 })),
      ...hours(renewedAt, renewedAt + 2 * DAY).map((ts) => ({ ts, v: 4 })),
    ].map(({ ts, v }) => ({ ts, channels: [{ ch: 1, v }], mode: 'normal' as const }));
    for (let i = 0; i < records.length; i += 500)
      await ctx.app.ingest.ingest(known, records.slice(i, i + 500));
    const history = async (maxPoints?: number) =>
      (
        await call<HistoryData>(
          ctx.app,
          '/api/device/historyData',
          {
            sensorId: String(sensorId),
            startTime: expiredAt - 2 * DAY,
            endTime: renewedAt + 2 * DAY,
            maxPoints,
          },
          { token },
        )
      ).body.data;
    for (const maxPoints of [undefined, 100]) {
      const hidden = await history(maxPoints);
      expect(new Set(hidden.points.map((p) => p[1]))).toEqual(new Set([1, 4]));
      expect(hidden).toMatchObject({ min: 1, max: 4 });
    }
    expect((await history()).points).toHaveLength(96);
    await approveOrder(ctx.app.db, await placeRecovery(token, [id], expiredAt, renewedAt));
    const shown = await history();
    expect(shown.points).toHaveLength(records.length);
    expect(shown).toMatchObject({ min: 1, max: 9 });
    expect((await history(100)).points).toContainEqual([expiredAt, 9]);
  }, 60_000);

  it("refuses another company's device, a device outside the member's department, and a member without device:view", async () => {
    const { company, id } = await lateRenewedDevice();
    const other = await companyWithDevices(0);
    const foreign = await call(
      ctx.app,
      '/api/device/serviceLapses',
      { deviceId: String(id) },
      { token: other.token },
    );
    expect(foreign.body).toEqual({
      msgCode: 500,
      msgContent: translate('DEVICE_NOT_FOUND', 'en'),
      data: null,
    });

    const member = async (tags: string[]) => {
      const user = await buildUser(ctx.app.db);
      const department = await buildDepartment(ctx.app.db, company.id);
      const role = await buildRole(ctx.app.db, company.id, department.id, tags);
      await addMember(ctx.app.db, company.id, user.id, false, {
        departmentId: department.id,
        roleId: role.id,
      });
      return login(ctx.app, user.account);
    };
    const outside = await call(
      ctx.app,
      '/api/device/serviceLapses',
      { deviceId: String(id) },
      { token: await member(['device:view']) },
    );
    expect(outside.body.msgContent).toBe(translate('DEVICE_NOT_FOUND', 'en'));
    const noView = await call(
      ctx.app,
      '/api/device/serviceLapses',
      { deviceId: String(id) },
      { token: await member(['device:edit']) },
    );
    expect(noView.body.msgContent).toBe(translate('NO_PERMISSION', 'en'));
    const bad = await call(ctx.app, '/api/device/serviceLapses', { deviceId: 'abc' }, { token: other.token });
    expect(bad.body.msgCode).toBe(500);
    expect(bad.body.msgContent).toMatch(/not a valid ID/);
  });
});

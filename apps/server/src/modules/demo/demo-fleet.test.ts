import type {
  AlarmRecordView,
  DeviceView,
  GroupingDepartment,
  GroupWithDevices,
  HistoryData,
  Page,
} from '@coldchain/contract';
import { ResolveState } from '@coldchain/contract';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { login } from '../../test/factories';
import { sweepOfflineDevices } from '../telemetry/offline-sweep';
import { seedDemoFleet } from './demo-fleet';
import { DEMO_ACCOUNT, DEMO_PASSWORD, seedDemo } from './demo-seed';
import { DEMO_UNITS } from './demo-units';

describe('demo fleet', () => {
  const ctx = useTestApp();

  it('binds twelve monitors with 1-4 channels, a week of five-minute history, one offline and one in alarm', async () => {
    const { companyId } = await seedDemo(ctx.app.db);
    const anchor = await seedDemoFleet(ctx.app.db, companyId!, ctx.app);
    // A second start only fills the gap: no duplicates, nothing lost, the same story.
    expect(await seedDemoFleet(ctx.app.db, companyId!, ctx.app)).toBe(anchor);
    await ctx.app.alarms.idle();
    // The server's offline sweep, as it runs 30 s after start.
    await ctx.app.alarms.onOffline(await sweepOfflineDevices(ctx.app.db));

    const token = await login(ctx.app, DEMO_ACCOUNT, DEMO_PASSWORD);
    const page = await call<Page<DeviceView>>(
      ctx.app,
      '/api/device/pageDevices',
      { pageSize: 50 },
      { token },
    );
    expect(page.body.data.total).toBe(12);
    const channelCounts = new Set(page.body.data.list.map((d) => d.sensors.length));
    expect([...channelCounts].sort()).toEqual([1, 2, 3, 4]);
    const counts = await call<Record<string, number>>(
      ctx.app,
      '/api/device/countGroupByState',
      {},
      { token },
    );
    expect(counts.body.data).toMatchObject({ '1': 10, '2': 1, '4': 1 });

    // Spread over two departments and their groups: every monitor is in a group, none loose.
    const grouping = await call<GroupingDepartment[]>(ctx.app, '/api/group/groupDevices', {}, { token });
    const serialsOf = (groups: GroupWithDevices[]): string[] =>
      groups.flatMap((g) => [...g.devices.map((d) => d.serial), ...serialsOf(g.children)]);
    const byName = Object.fromEntries(
      grouping.body.data.map((d) => [
        d.name,
        {
          groups: d.groups.map((g) => g.name),
          serials: serialsOf(d.groups),
          loose: d.devices.length,
          state: d.state,
        },
      ]),
    );
    expect(byName.Pharmacy).toEqual({
      groups: ['Blood and samples', 'Vaccine fridges', 'Wards and labs'],
      serials: expect.arrayContaining(['DEMO0001', 'DEMO0005', 'DEMO0011', 'DEMO0012']),
      loose: 0,
      state: 2,
    });
    expect(byName.Pharmacy!.serials).toHaveLength(8);
    expect(byName['Cold Store']).toEqual({
      groups: ['Cold rooms', 'Retail and transport'],
      serials: expect.arrayContaining(['DEMO0007', 'DEMO0008', 'DEMO0009', 'DEMO0010']),
      loose: 0,
      state: 1,
    });
    expect(byName['Cold Store']!.serials).toHaveLength(4);
    expect(grouping.body.data).toHaveLength(3);

    const unplugged = page.body.data.list.find((d) => d.serial === 'DEMO0011')!;
    expect(unplugged.state).toBe(4);
    expect(Date.now() - unplugged.lastSeenTime!).toBeGreaterThan(2.9 * 3_600_000);
    const fridge = page.body.data.list.find((d) => d.serial === DEMO_UNITS[0]!.serial)!;
    const now = Date.now();
    const history = await call<HistoryData>(
      ctx.app,
      '/api/device/historyData',
      { sensorId: fridge.sensors[0]!.id, startTime: now - 7 * 86_400_000, endTime: now },
      { token },
    );
    expect(history.body.data.points.length).toBeGreaterThanOrEqual(2014);
    expect(history.body.data.points.length).toBeLessThanOrEqual(2017);
    expect(history.body.data.avg).toBeGreaterThan(3);
    expect(history.body.data.avg).toBeLessThan(8);
    expect(history.body.data.mkt).not.toBeNull();

    // Alarms come from the engine, not from the seed: the warm fridge's over-limit alarm (judged
    // from its history; notified once, since reminders follow on the server clock, not on a week
    // of history arriving at once: alarm-follow-ups.ts) and the unplugged one's offline alarm. The delays
    // keep door openings and defrost cycles of the others quiet.
    const alarms = await call<Page<AlarmRecordView>>(
      ctx.app,
      '/api/alarm/pageAlarms',
      { pageSize: 50 },
      { token },
    );
    // The power cut's alarm (demo-story.ts) ended when the fridge was back in its band, and the
    // Pharmacy's person in charge resolved it.
    expect(
      alarms.body.data.list.map((a) => [a.deviceSerial, a.alarmType, a.count, a.resolveState]).sort(),
    ).toEqual([
      ['DEMO0003', 'overLimit', 1, ResolveState.Resolved],
      ['DEMO0011', 'offline', 1, ResolveState.Pending],
      ['DEMO0012', 'overLimit', 1, ResolveState.Pending],
    ]);
    const powerCut = alarms.body.data.list.find((a) => a.deviceSerial === 'DEMO0003')!;
    expect(powerCut.resolverName).toBe('Aisha Rahman');
  }, 60_000);
});

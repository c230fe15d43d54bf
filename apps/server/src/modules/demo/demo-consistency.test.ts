import type {
  AlarmRecordView,
  AlarmSettingView,
  ChartStatistics,
  CompanyDataInfo,
  DepartmentNode,
  DeviceView,
  NoticeView,
  Page,
} from '@coldchain/contract';
import { DeviceState, ResolveState } from '@coldchain/contract';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { login } from '../../test/factories';
import { runReminderSweep } from '../reminders/reminder-sweep';
import { sweepOfflineDevices } from '../telemetry/offline-sweep';
import { seedDemoFleet } from './demo-fleet';
import { DEMO_ACCOUNT, DEMO_PASSWORD, seedDemo } from './demo-seed';

const DAY_MS = 86_400_000;

/**
 * Issue 20: the seeded demo tells one story. Every figure is read through the calls the console
 * makes for the home page, the bell, the alarm list, the monitor list and the organisation page,
 * after the seed and the server's first offline and reminder sweeps, and the figures must agree.
 */
describe('demo story agrees with itself', () => {
  const ctx = useTestApp();

  it('home figures, chart, bell, alarm list, monitor states and department counts agree', async () => {
    const { companyId } = await seedDemo(ctx.app.db);
    await seedDemoFleet(ctx.app.db, companyId!, ctx.app);
    await ctx.app.alarms.idle();
    await ctx.app.alarms.onOffline(await sweepOfflineDevices(ctx.app.db));
    await runReminderSweep(ctx.app.db);
    const token = await login(ctx.app, DEMO_ACCOUNT, DEMO_PASSWORD);
    const ask = async <T>(path: string, body: Record<string, unknown> = {}) => {
      const { body: envelope } = await call<T>(ctx.app, path, body, { token });
      expect(envelope.msgCode, path).toBe(200);
      return envelope.data;
    };

    const home = await ask<CompanyDataInfo>('/api/userOrganize/companyDataInfo');
    const alarms = await ask<Page<AlarmRecordView>>('/api/alarm/pageAlarms', { pageSize: 200 });
    const pending = await ask<Page<AlarmRecordView>>('/api/alarm/pageAlarms', {
      pageSize: 200,
      resolveState: ResolveState.Pending,
    });
    // The story has at least one open alarm, so "equal" is not "both zero".
    expect(pending.total).toBeGreaterThan(0);
    expect(home.pendingAlarms).toBe(pending.total);
    expect(pending.list.every((a) => a.resolveState === ResolveState.Pending)).toBe(true);

    // "Today" is the UTC day on the home page and in the chart (API.md).
    const startOfToday = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    const raisedToday = alarms.list.filter((a) => a.alarmTime >= startOfToday).length;
    const chart = await ask<ChartStatistics>('/api/userOrganize/indexChartForStatistics', { days: 7 });
    expect(chart.days.at(-1)!.date).toBe(new Date(startOfToday).toISOString().slice(0, 10));
    expect(chart.days.at(-1)!.alarms).toBe(raisedToday);
    expect(home.alarmsToday).toBe(raisedToday);
    // Every alarm of the week is a bar of the chart, and every resolution too.
    const weekStart = startOfToday - 6 * DAY_MS;
    expect(chart.days.reduce((sum, d) => sum + d.alarms, 0)).toBe(
      alarms.list.filter((a) => a.alarmTime >= weekStart).length,
    );
    expect(chart.days.reduce((sum, d) => sum + d.resolved, 0)).toBe(
      alarms.list.filter((a) => a.resolveState === ResolveState.Resolved && a.resolveTime! >= weekStart)
        .length,
    );

    const bell = await ask<{ count: number }>('/api/user/newUserNotice');
    const unread = await ask<Page<NoticeView>>('/api/user/userNoticeList', { pageSize: 100, state: 1 });
    expect(bell.count).toBe(unread.total);
    expect(unread.list).toHaveLength(unread.total);

    const devices = await ask<Page<DeviceView>>('/api/device/pageDevices', { pageSize: 200 });
    const states = await ask<Record<string, number>>('/api/device/countGroupByState');
    expect(home.deviceCount).toBe(devices.total);
    expect(home.deviceStates).toEqual(states);
    for (const [state, n] of Object.entries(states))
      expect(devices.list.filter((d) => String(d.state) === state).length, `state ${state}`).toBe(n);

    // A monitor whose latest reading is outside an enabled limit is not "Normal" (DEMO0004 was).
    for (const device of devices.list) {
      const settings = await ask<Page<AlarmSettingView>>('/api/deviceAlarmRule/alarmList', {
        deviceId: device.id,
        pageSize: 200,
      });
      for (const setting of settings.list) {
        if (!setting.enabled || setting.alarmType !== 'overLimit' || setting.sensorId === null) continue;
        const sensor = device.sensors.find((s) => s.id === setting.sensorId)!;
        const outside =
          sensor.value !== null &&
          ((setting.max !== null && sensor.value > setting.max) ||
            (setting.min !== null && sensor.value < setting.min));
        if (outside)
          expect(device.state, `${device.serial} reads ${sensor.value}`).not.toBe(DeviceState.Normal);
        if (device.state === DeviceState.Normal)
          expect(outside, `${device.serial} is Normal at ${sensor.value}`).toBe(false);
      }
    }
    // Each open over-limit alarm is on a monitor in alarm; each open offline alarm on one offline.
    for (const alarm of pending.list) {
      const device = devices.list.find((d) => d.id === alarm.deviceId)!;
      expect(device.state, `${alarm.deviceSerial} ${alarm.alarmType}`).toBe(
        alarm.alarmType === 'offline' ? DeviceState.Offline : DeviceState.Alarm,
      );
    }

    // Each department holds what the monitor list shows when filtered by it, and together they
    // hold every monitor of the company.
    const tree = await ask<DepartmentNode[]>('/api/user/userOrganizeList');
    const flat = (nodes: DepartmentNode[]): DepartmentNode[] =>
      nodes.flatMap((n) => [n, ...flat(n.children)]);
    for (const department of flat(tree)) {
      const listed = await ask<Page<DeviceView>>('/api/device/pageDevices', {
        pageSize: 200,
        departmentId: department.id,
      });
      expect(listed.total, department.name).toBe(department.deviceCount);
    }
    expect(flat(tree).reduce((sum, d) => sum + d.deviceCount, 0)).toBe(devices.total);
  }, 90_000);
});

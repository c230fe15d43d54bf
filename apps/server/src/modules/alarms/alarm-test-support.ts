import { and, eq, not } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../../app';
import type { Config } from '../../lib/config';
import { call, type TestContext, testConfig } from '../../test/build-app';
import { buildCompany, buildDevice, login } from '../../test/factories';
import { openTestDatabase } from '../../test/test-database';
import { ensureReadingPartitions } from '../telemetry/partitions';
import { alarmSettings } from './alarms.table';

/** Shared set-up of the alarm tests: a company, its admin's token and one fridge with one probe. */
export async function alarmFixture(app: FastifyInstance, name = 'Vaccine fridge 1') {
  const company = await buildCompany(app.db);
  const token = await login(app, company.admin.account);
  const device = await buildDevice(app.db, company.id, {
    name,
    channels: [{ type: 'temperature', unit: '°C', min: -40, max: 85 }],
  });
  const sensor = device.sensors[0]!;
  const as = { token, companyId: company.id };
  const save = (body: Record<string, unknown>, language?: 'en' | 'cn') =>
    call<{ id: string }>(
      app,
      '/api/deviceAlarmRule/saveAlarmSetting',
      {
        carrier: 'sensor',
        targetId: String(sensor.id),
        level: 1,
        alarmType: 'overLimit',
        min: 2,
        max: 8,
        repeat: 1,
        channels: ['email', 'sms'],
        notifierIds: [String(company.admin.id)],
        ...body,
      },
      { ...as, language },
    );
  /**
   * A device-level setting (offline, power off, low battery, call): on the device (or another of
   * the company's), no limits.
   */
  const saveDeviceLevel = (alarmType: string, targetId: string | number = device.id) =>
    save({ carrier: 'device', targetId: String(targetId), alarmType, min: undefined, max: undefined });
  return { company, token, device, sensor, as, save, saveDeviceLevel };
}

/** Posts readings over HTTP the way a logger does (device protocol v1). */
export function postReadings(
  app: FastifyInstance,
  device: { serial: string; deviceKey: string },
  records: { ts: number; v: number; mode?: string }[],
) {
  return app.inject({
    method: 'POST',
    url: '/device/v1/up',
    headers: {
      authorization: `Basic ${Buffer.from(`${device.serial}:${device.deviceKey}`).toString('base64')}`,
      'content-type': 'application/json',
    },
    payload: JSON.stringify({
      records: records.map((r) => ({
        ts: r.ts,
        channels: [{ ch: 1, v: r.v }],
        ...(r.mode ? { mode: r.mode } : {}),
      })),
    }),
  });
}

export function postEvent(
  app: FastifyInstance,
  device: { serial: string; deviceKey: string },
  event: string,
  ts: number,
) {
  return app.inject({
    method: 'POST',
    url: '/device/v1/event',
    headers: {
      authorization: `Basic ${Buffer.from(`${device.serial}:${device.deviceKey}`).toString('base64')}`,
      'content-type': 'application/json',
    },
    payload: JSON.stringify({ ts, event }),
  });
}

/** A clock the test moves by hand: reminders and escalation are checked to the second, never slept out. */
export function manualClock(start: number) {
  let now = start;
  return {
    read: () => new Date(now),
    now: () => now,
    set(at: number) {
      now = at;
    },
    advance(ms: number) {
      now += ms;
    },
  };
}

/**
 * `useTestApp` on a clock of the test's own: the alarm engine (which schedules reminders when it
 * raises) and the follow-ups (which send them) read the same hand-moved time.
 */
export function useClockedTestApp(clock: { read: () => Date }, overrides: Partial<Config> = {}) {
  const ctx = {} as TestContext;
  beforeAll(async () => {
    ctx.config = testConfig({ loginRateLimitPerMinute: 10_000, ...overrides });
    ctx.database = await openTestDatabase();
    await ensureReadingPartitions(ctx.database.db);
    ctx.app = await buildApp({
      config: ctx.config,
      database: ctx.database,
      logger: false as never,
      clock: clock.read,
    });
    await ctx.app.ready();
  });
  afterAll(async () => {
    await ctx.app?.close();
    await ctx.database?.close();
  });
  return ctx;
}

/**
 * Settings a test saved: every device comes with a default `abnormal` setting on itself
 * (alarm-default-settings.ts), which tests of saving and refusing leave out of their counts.
 */
export const savedByTest = not(
  and(eq(alarmSettings.alarmType, 'abnormal'), eq(alarmSettings.carrier, 'device'))!,
);

import { MAX_INSTANT_MS } from '@coldchain/contract';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from './build-app';
import { buildCompany, buildDevice, login } from './factories';

/*
 * Found by the API fuzz (issue 13): a time filter past the year 9999 (8.64e15, JavaScript's last
 * date) reached PostgreSQL as `+275760-09-13T…`, which it cannot read, and the call answered
 * HTTP 500. The contract's time fields (rules.ts `EpochMs`, `MAX_INSTANT_MS`) now refuse it,
 * naming the field, in the caller's language.
 */
describe('times past the year 9999 in a call', () => {
  const ctx = useTestApp();
  const lastDate = 8.64e15;

  async function signedIn() {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id);
    const token = await login(ctx.app, company.admin.account);
    return { token, companyId: company.id, deviceId: device.id, sensorId: String(device.sensors[0]!.id) };
  }

  it('are refused naming the field, on every list that filters by time', async () => {
    const who = await signedIn();
    const bodies: [string, Record<string, unknown>][] = [
      ['/api/audit/pageOperationLog', { startTime: 1, endTime: lastDate }],
      ['/api/userLoginLog/pageUserLog', { startTime: 1, endTime: lastDate }],
      ['/api/userLoginLog/auditPageUserLog', { startTime: lastDate }],
      ['/api/alarm/pageAlarms', { startTime: 1, endTime: lastDate }],
      ['/api/device/historyData', { sensorId: who.sensorId, startTime: lastDate - 1, endTime: lastDate }],
      [
        '/api/device/addCalibration',
        { deviceId: who.deviceId, calibratedAt: 1, nextDueAt: lastDate, institution: 'Lab' },
      ],
    ];
    for (const [url, body] of bodies) {
      const { status, body: answer } = await call(ctx.app, url, body, { ...who, language: 'en' });
      expect({ url, status, msgCode: answer.msgCode }).toEqual({ url, status: 200, msgCode: 500 });
      expect(answer.msgContent).toMatch(/ must be a time before the year 10000$/);
    }
    const { body: chinese } = await call(
      ctx.app,
      '/api/alarm/pageAlarms',
      { endTime: lastDate },
      {
        ...who,
        language: 'cn',
      },
    );
    expect(chinese.msgContent).toBe('结束时间必须是公元 10000 年之前的时间');
  });

  it('accept the last millisecond of the year 9999', async () => {
    const who = await signedIn();
    const { body } = await call(
      ctx.app,
      '/api/audit/pageOperationLog',
      { startTime: 0, endTime: MAX_INSTANT_MS },
      who,
    );
    expect(body.msgCode).toBe(200);
    expect(new Date(MAX_INSTANT_MS).toISOString()).toBe('9999-12-31T23:59:59.999Z');
  });
});

import type { PushTestResult, SavedPushUrl } from '@coldchain/contract';
import { afterAll, expect } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { buildCompany, buildDevice, login } from '../../test/factories';
import type { PushOptions } from './push-options';
import { RECEIVER_HOST, type Receiver, startReceiver } from './push-test-support';

export const PUSH_SERVICES = ['service:pushDock'];

/**
 * One app for a push docking test file: receivers on 127.0.0.2 (allowed), fast retries, no rest
 * between the worker's rounds (unless `push` says otherwise); companies with the push service, each with a device.
 */
export function usePushFixture(push: Partial<PushOptions> = {}) {
  const ctx = useTestApp({
    push: {
      allowHosts: RECEIVER_HOST,
      pollMs: 60_000,
      retryBaseMs: 1_000,
      retryMaxMs: 3_600_000,
      timeoutMs: 3_000,
      leaseMs: 10_000,
      stopAfterMs: 86_400_000,
      pauseFactor: 0,
      ...push,
    },
  });
  const receivers: Receiver[] = [];
  afterAll(async () => {
    for (const r of receivers) await r.close();
  });

  async function receiver(host?: string) {
    const r = await startReceiver(host);
    receivers.push(r);
    return r;
  }

  async function setUp(services = PUSH_SERVICES) {
    const company = await buildCompany(ctx.app.db, { services });
    const as = { token: await login(ctx.app, company.admin.account), companyId: company.id };
    const device = await buildDevice(ctx.app.db, company.id, { name: 'Push fridge' });
    const post = <T>(url: string, body: unknown, language?: 'en' | 'cn') =>
      call<T>(ctx.app, url, body, { ...as, language });
    return { company, as, device, post };
  }

  /** An enabled address on a fresh receiver, bound to the device. */
  async function enabledAddress(
    post: Awaited<ReturnType<typeof setUp>>['post'],
    deviceId: string,
    events = ['reading', 'alarm', 'alarmResolved', 'deviceState'],
  ) {
    const r = await receiver();
    const saved = await post<SavedPushUrl>('/api/push/saveUrl', { name: 'BMS', url: r.url, events });
    expect(saved.body.msgCode).toBe(200);
    const tested = await post<PushTestResult>('/api/push/testUrl', { id: saved.body.data.id });
    expect(tested.body.data).toMatchObject({ ok: true, httpStatus: 200, state: 2 });
    expect(
      (await post('/api/push/setDevices', { id: saved.body.data.id, deviceIds: [deviceId] })).body.msgCode,
    ).toBe(200);
    r.received.length = 0;
    return { r, id: saved.body.data.id, secret: saved.body.data.secret! };
  }

  return { ctx, receiver, setUp, enabledAddress };
}

import { type ParameterRequestView, ParameterState } from '@coldchain/contract';
import { eq } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { devices } from '../devices/devices.table';
import { startDeviceBroker } from '../ingest/device-broker';
import type { EmbeddedBroker } from '../ingest/embedded-broker';

const TIMEOUT_MS = 600;

describe('parameter read and push down over the embedded broker', () => {
  const ctx = useTestApp({ parameterTimeoutMs: TIMEOUT_MS });
  let broker: EmbeddedBroker;
  const clients: MqttClient[] = [];

  beforeAll(async () => {
    broker = await startDeviceBroker(ctx.app, 0, '127.0.0.1');
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true)));
    await broker.close();
  });

  async function setup() {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id);
    const token = await login(ctx.app, company.admin.account);
    return { company, device, token };
  }

  /** A simulated device: subscribes to its down topic and answers with `answer`. */
  async function deviceAnswering(
    device: { serial: string; deviceKey: string },
    answer: (message: { requestId: string; cmd: string; params?: Record<string, number> }) => object | null,
  ) {
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, {
      clientId: device.serial,
      username: device.serial,
      password: device.deviceKey,
      reconnectPeriod: 0,
    });
    clients.push(client);
    const received: unknown[] = [];
    client.on('message', (_topic, payload) => {
      const message = JSON.parse(payload.toString());
      received.push(message);
      const reply = answer(message);
      if (reply) void client.publishAsync(`cc/v1/${device.serial}/ack`, JSON.stringify(reply), { qos: 1 });
    });
    await client.subscribeAsync(`cc/v1/${device.serial}/down`, { qos: 1 });
    return { client, received };
  }

  async function stateOf(id: string, token: string) {
    const res = await call<ParameterRequestView | null>(
      ctx.app,
      '/api/device/parameterState',
      { id },
      { token },
    );
    return res.body.data;
  }

  async function waitForState(id: string, token: string, states: number[]) {
    for (let i = 0; i < 100; i++) {
      await ctx.app.parameters.idle();
      const state = await stateOf(id, token);
      if (state && states.includes(state.state)) return state;
      await new Promise((r) => setTimeout(r, 30));
    }
    throw new Error('state never reached');
  }

  it('reads: reading, then read ok with the parameters the device reported', async () => {
    const { device, token } = await setup();
    expect(await stateOf(device.id, token)).toBeNull();
    const { received } = await deviceAnswering(device, (m) => ({
      requestId: m.requestId,
      ok: true,
      params: { recordInterval: 120, uploadInterval: 600, alarmVerifyInterval: 60 },
    }));
    const started = await call<ParameterRequestView>(
      ctx.app,
      '/api/device/readParameters',
      { id: device.id },
      { token },
    );
    expect(started.body.data.state).toBe(ParameterState.Reading);
    const done = await waitForState(device.id, token, [ParameterState.ReadOk]);
    expect(done.params).toEqual({ recordInterval: 120, uploadInterval: 600, alarmVerifyInterval: 60 });
    expect(received).toEqual([{ requestId: started.body.data.requestId, cmd: 'read' }]);
  });

  it('pushes: sending, then sent, and the device record takes the pushed values', async () => {
    const { device, token } = await setup();
    const { received } = await deviceAnswering(device, (m) => ({ requestId: m.requestId, ok: true }));
    const started = await call<ParameterRequestView>(
      ctx.app,
      '/api/device/pushParameters',
      { id: device.id, recordInterval: 60, uploadInterval: 120, alarmVerifyInterval: 60 },
      { token },
    );
    expect(started.body.data.state).toBe(ParameterState.Sending);
    const done = await waitForState(device.id, token, [ParameterState.Sent]);
    const pushed = { recordInterval: 60, uploadInterval: 120, alarmVerifyInterval: 60 };
    expect(done.params).toEqual(pushed);
    expect(received).toEqual([{ requestId: started.body.data.requestId, cmd: 'write', params: pushed }]);
    const [row] = await ctx.app.db
      .select()
      .from(devices)
      .where(eq(devices.id, Number(device.id)));
    expect([row!.recordIntervalS, row!.uploadIntervalS, row!.alarmVerifyIntervalS]).toEqual([60, 120, 60]);
  });

  it('a device that refuses gives read failed / send failed, and the record keeps its values', async () => {
    const { device, token } = await setup();
    await deviceAnswering(device, (m) => ({ requestId: m.requestId, ok: false, error: 'unsupported' }));
    await call(ctx.app, '/api/device/pushParameters', { id: device.id, uploadInterval: 900 }, { token });
    const failed = await waitForState(device.id, token, [ParameterState.SendFailed]);
    expect(failed.error).toBe('rejected');
    const [row] = await ctx.app.db
      .select()
      .from(devices)
      .where(eq(devices.id, Number(device.id)));
    expect(row!.uploadIntervalS).toBe(300);
    await call(ctx.app, '/api/device/readParameters', { id: device.id }, { token });
    expect((await waitForState(device.id, token, [ParameterState.ReadFailed])).error).toBe('rejected');
  });

  it('a device that never answers fails after the timeout; a second request waits until then', async () => {
    const { device, token } = await setup();
    await deviceAnswering(device, () => null);
    await call(ctx.app, '/api/device/readParameters', { id: device.id }, { token });
    const busy = await call(
      ctx.app,
      '/api/device/pushParameters',
      { id: device.id, uploadInterval: 900 },
      { token },
    );
    expect(busy.body.msgContent).toBe(translate('PARAMETERS_BUSY', 'en'));
    const failed = await waitForState(device.id, token, [ParameterState.ReadFailed]);
    expect(failed.error).toBe('timeout');
    expect(failed.finishTime! - failed.createTime).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
  });

  it('ignores an ack for another device’s request and a late ack after the timeout', async () => {
    const { device, token } = await setup();
    const other = await setup();
    await deviceAnswering(device, () => null);
    const started = await call<ParameterRequestView>(
      ctx.app,
      '/api/device/readParameters',
      { id: device.id },
      { token },
    );
    const intruder = await deviceAnswering(other.device, () => null);
    // The broker allows a device to publish only on its own ack topic: the other device's ack
    // names this request but is not applied to it.
    await intruder.client.publishAsync(
      `cc/v1/${other.device.serial}/ack`,
      JSON.stringify({ requestId: started.body.data.requestId, ok: true, params: { uploadInterval: 1 } }),
      { qos: 1 },
    );
    await ctx.app.parameters.idle();
    expect((await stateOf(device.id, token))!.state).toBe(ParameterState.Reading);
    await waitForState(device.id, token, [ParameterState.ReadFailed]);
  });

  it('validates pushed values, naming the field, in the caller’s language', async () => {
    const { device, token } = await setup();
    const none = await call(ctx.app, '/api/device/pushParameters', { id: device.id }, { token });
    expect(none.body.msgContent).toBe('Enter at least one parameter to push');
    const small = await call(
      ctx.app,
      '/api/device/pushParameters',
      { id: device.id, recordInterval: 5 },
      { token, language: 'cn' },
    );
    expect(small.body.msgContent).toBe('正常记录间隔不能小于 10');
    // Verification against the upload interval the device keeps (300 s).
    const verify = await call(
      ctx.app,
      '/api/device/pushParameters',
      { id: device.id, alarmVerifyInterval: 600 },
      { token },
    );
    expect(verify.body.msgContent).toBe(translate('rule.alarmVerifyInterval', 'en'));
  });

  it('needs device:edit over the device to read or push; a foreign device is not found', async () => {
    const { company, device, token } = await setup();
    const other = await setup();
    const foreign = await call(ctx.app, '/api/device/readParameters', { id: other.device.id }, { token });
    expect(foreign.body.msgContent).toBe(translate('DEVICE_NOT_FOUND', 'en'));
    const user = await buildUser(ctx.app.db);
    const dept = await buildDepartment(ctx.app.db, company.id);
    const viewer = await buildRole(ctx.app.db, company.id, dept.id, ['device:view']);
    await addMember(ctx.app.db, company.id, user.id, false, { departmentId: dept.id, roleId: viewer.id });
    const viewerToken = await login(ctx.app, user.account);
    const refused = await call(
      ctx.app,
      '/api/device/pushParameters',
      { id: device.id, uploadInterval: 600 },
      { token: viewerToken },
    );
    expect(refused.body.msgContent).toBe(translate('NO_PERMISSION', 'en'));
    // The viewer's department does not hold the device: its state is not theirs to read either.
    const state = await call(
      ctx.app,
      '/api/device/parameterState',
      { id: device.id },
      { token: viewerToken },
    );
    expect(state.body.msgContent).toBe(translate('DEVICE_NOT_FOUND', 'en'));
  });
});

describe('parameter requests without a broker', () => {
  const ctx = useTestApp();

  it('fail at once instead of waiting for a device that cannot be reached', async () => {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id);
    const token = await login(ctx.app, company.admin.account);
    const res = await call<ParameterRequestView>(
      ctx.app,
      '/api/device/readParameters',
      { id: device.id },
      { token },
    );
    expect(res.body.data).toMatchObject({ state: ParameterState.ReadFailed, error: 'noBroker' });
  });
});

import { randomBytes } from 'node:crypto';
import { type ParameterRequestView, ParameterState } from '@coldchain/contract';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { buildCompany, buildDevice, login } from '../../test/factories';
import { connectExternalBroker, type ExternalBrokerLink } from '../ingest/external-broker';

/** Mosquitto runs on this machine (and in CI) at 127.0.0.1:1883; MOSQUITTO_URL points elsewhere. */
const MOSQUITTO = process.env.MOSQUITTO_URL ?? 'mqtt://127.0.0.1:1883';

describe('parameter push down through the external broker (MQTT_URL)', () => {
  const ctx = useTestApp({ parameterTimeoutMs: 10_000 });
  let link: ExternalBrokerLink;

  beforeAll(async () => {
    link = await connectExternalBroker(ctx.app, {
      url: MOSQUITTO,
      group: `cc-test-${randomBytes(4).toString('hex')}`,
      clientId: `cc-test-${randomBytes(4).toString('hex')}`,
    });
  });
  afterAll(async () => {
    await link?.close();
  });

  it('publishes the push on the down topic and applies the ack the device sends back', async () => {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id);
    const token = await login(ctx.app, company.admin.account);
    const logger = await mqtt.connectAsync(MOSQUITTO, { clientId: device.serial, reconnectPeriod: 0 });
    const down = new Promise<{ requestId: string; cmd: string; params: Record<string, number> }>((resolve) =>
      logger.on('message', (_topic, payload) => resolve(JSON.parse(payload.toString()))),
    );
    await logger.subscribeAsync(`cc/v1/${device.serial}/down`, { qos: 1 });
    const started = await call<ParameterRequestView>(
      ctx.app,
      '/api/device/pushParameters',
      { id: device.id, recordInterval: 120 },
      { token },
    );
    expect(started.body.data.state).toBe(ParameterState.Sending);
    const message = await down;
    expect(message).toEqual({
      requestId: started.body.data.requestId,
      cmd: 'write',
      params: { recordInterval: 120 },
    });
    await logger.publishAsync(
      `cc/v1/${device.serial}/ack`,
      JSON.stringify({ requestId: message.requestId, ok: true }),
      { qos: 1 },
    );
    let state: ParameterRequestView | null = null;
    for (let i = 0; i < 100 && state?.state !== ParameterState.Sent; i++) {
      await new Promise((r) => setTimeout(r, 50));
      await ctx.app.parameters.idle();
      state = (
        await call<ParameterRequestView | null>(
          ctx.app,
          '/api/device/parameterState',
          { id: device.id },
          { token },
        )
      ).body.data;
    }
    expect(state?.state).toBe(ParameterState.Sent);
    await logger.endAsync();
  });
});

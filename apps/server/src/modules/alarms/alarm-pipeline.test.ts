import { eq } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { call, useTestApp } from '../../test/build-app';
import { startSmtpSink } from '../../test/smtp-sink';
import { grantCredit } from '../delivery/credits.service';
import { startFakeTwilio } from '../delivery/delivery-test-support';
import { startDeviceBroker } from '../ingest/device-broker';
import type { EmbeddedBroker } from '../ingest/embedded-broker';
import type { LiveMessage } from '../live/live-hub';
import { users } from '../users/users.table';
import { alarmFixture } from './alarm-test-support';

const twilio = await startFakeTwilio();
const smtp = await startSmtpSink();
const SID = 'AC00000000000000000000000000000001';

/**
 * The whole path of the alarms issue, with nothing in between faked: a logger publishes over
 * MQTT (QoS 1) to the embedded broker; the engine raises the alarm; the live socket of the
 * administrator receives it; the delivery worker sends the e-mail to a real SMTP server and SMS,
 * call and WhatsApp to a local Twilio-compatible server that checks what we send.
 */
describe('alarm pipeline: MQTT publish to phone', () => {
  const ctx = useTestApp({
    smtpUrl: smtp.url,
    twilio: {
      baseUrl: twilio.url,
      accountSid: SID,
      authToken: 'tok',
      from: '+15550000001',
      whatsappFrom: '+15550000002',
    },
  });
  let broker: EmbeddedBroker;
  let client: MqttClient | undefined;
  let socket: WebSocket | undefined;

  beforeAll(async () => {
    broker = await startDeviceBroker(ctx.app, 0, '127.0.0.1');
  });
  afterAll(async () => {
    socket?.terminate();
    await client?.endAsync(true);
    await ctx.app.delivery.stop();
    await broker.close();
    await twilio.close();
    await smtp.close();
  });

  it('publish -> alarm record -> socket message -> e-mail at the SMTP sink -> SMS, call and WhatsApp requests', async () => {
    const f = await alarmFixture(ctx.app, 'Vaccine fridge MQTT');
    await grantCredit(ctx.app.db, f.company.id, 50);
    await ctx.app.db.update(users).set({ phone: '+8613800138000' }).where(eq(users.id, f.company.admin.id));
    expect((await f.save({ channels: ['email', 'sms', 'call', 'whatsapp'] })).body.msgCode).toBe(200);

    socket = await ctx.app.injectWS('/api/ws');
    // The bind acknowledgement is not a LiveMessage of the hub, hence the wider type.
    const messages: (LiveMessage | { type: 'bind' })[] = [];
    socket.on('message', (data) => messages.push(JSON.parse(String(data)) as LiveMessage));
    socket.send(JSON.stringify({ bindType: 2, bindContent: f.token }));
    await until(() => messages.some((m) => m.type === 'bind'));

    ctx.app.delivery.start();
    const mail = smtp.nextMail();
    client = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, {
      clientId: f.device.serial,
      username: f.device.serial,
      password: f.device.deviceKey,
      reconnectPeriod: 0,
    });
    const topic = `cc/v1/${f.device.serial}/up`;
    const now = Date.now();
    await client.publishAsync(
      topic,
      JSON.stringify({ records: [{ ts: now - 1000, channels: [{ ch: 1, v: 5 }] }] }),
      {
        qos: 1,
      },
    );
    const published = performance.now();
    await client.publishAsync(
      topic,
      JSON.stringify({ records: [{ ts: now, channels: [{ ch: 1, v: 9.4 }] }] }),
      {
        qos: 1,
      },
    );

    // The socket message: the fields the console shows as a notification.
    await until(() => messages.some((m) => m.type === 'alarm'));
    const socketMs = performance.now() - published;
    const alarm = messages.find((m): m is LiveMessage => m.type === 'alarm')!;
    expect(alarm.bindContent).toMatchObject({
      alarmType: 'overLimit',
      deviceName: 'Vaccine fridge MQTT',
      deviceSerial: f.device.serial,
      alarmContent: { en: expect.stringContaining('above the limit 8 °C') },
    });
    expect(socketMs).toBeLessThan(1000);

    // The alarm record, as alarmInfo lists it.
    const page = await call<{ list: { id: string; alarmType: string; deviceSerial: string }[] }>(
      ctx.app,
      '/api/alarm/pageAlarms',
      { pageNum: 1, pageSize: 10 },
      f.as,
    );
    expect(page.body.data.list).toEqual([
      expect.objectContaining({ alarmType: 'overLimit', deviceSerial: f.device.serial }),
    ]);

    // E-mail at the SMTP server, then the three provider requests.
    const received = await mail;
    expect(received.to).toEqual([f.company.admin.email]);
    expect(received.text).toContain('Temperature 1 of Vaccine fridge MQTT is 9.4 °C, above the limit 8 °C');
    await twilio.waitForRequests(3);
    const bodies = twilio.requests.map((r) => [r.path.split('/').pop(), r.form.To]);
    expect(bodies).toEqual(
      expect.arrayContaining([
        ['Messages.json', '+8613800138000'],
        ['Messages.json', 'whatsapp:+8613800138000'],
        ['Calls.json', '+8613800138000'],
      ]),
    );
    for (const r of twilio.requests) {
      expect(r.headers.authorization).toBe(`Basic ${Buffer.from(`${SID}:tok`).toString('base64')}`);
    }
    const sms = twilio.requests.find((r) => r.form.To === '+8613800138000' && r.form.Body)!;
    expect(sms.form.Body).toBe(
      '[ColdChain] Temperature 1 of Vaccine fridge MQTT is 9.4 °C, above the limit 8 °C',
    );

    // The alarm's detail shows each channel's delivery status.
    const detail = await call<{ channel: string; status: string }[]>(
      ctx.app,
      '/api/alarm/alarmNotifications',
      { id: page.body.data.list[0]!.id },
      f.as,
    );
    await until(async () => {
      const again = await call<{ channel: string; status: string }[]>(
        ctx.app,
        '/api/alarm/alarmNotifications',
        { id: page.body.data.list[0]!.id },
        f.as,
      );
      return again.body.data.every((n) => n.status === 'sent');
    });
    expect(detail.body.data.map((n) => n.channel).sort()).toEqual(['call', 'email', 'sms', 'whatsapp']);
  });
});

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

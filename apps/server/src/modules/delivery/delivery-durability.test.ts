import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DeviceView } from '@coldchain/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, postJson, type ServerProcess, startServerProcess } from '../../test/server-process';
import { startSmtpSink } from '../../test/smtp-sink';

const DEVICE_NAME = 'Outbox SIGKILL fridge';

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The outbox is in the database, not in memory: an alarm e-mail that could not be sent (the mail
 * server is down) survives a SIGKILL of the server and is delivered once after the restart.
 */
describe('delivery outbox durability', () => {
  let server: ServerProcess | undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cc-outbox-'));
  afterAll(() => {
    server?.child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('delivers a pending e-mail exactly once after the server is killed with SIGKILL and restarted', async () => {
    const smtpPort = await freePort();
    const env = {
      DATA_DIR: dataDir,
      DEMO: '1',
      PORT: String(await freePort()),
      MQTT_PORT: String(await freePort()),
      // Nothing listens here until the restart: every attempt before the kill fails.
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      DELIVERY_POLL_MS: '200',
      DELIVERY_RETRY_BASE_MS: '300',
      DELIVERY_LEASE_MS: '2000',
      DELIVERY_HTTP_TIMEOUT_MS: '2000',
    };
    server = await startServerProcess(env);
    const base = server.baseUrl;
    const { accessToken } = await postJson<{ accessToken: string }>(base, '/api/doLogin', {
      account: 'demo@example.com',
      password: 'Demo1234',
      type: 1,
      platform: 1,
    });
    const me = await postJson<{ id: string }>(base, '/api/user/userInfo', {}, accessToken);
    const device = await postJson<{ id: string; deviceKey: string }>(
      base,
      '/api/device/addDevice',
      { serial: 'SIM1018', name: DEVICE_NAME },
      accessToken,
    );
    const detail = await postJson<DeviceView>(
      base,
      '/api/device/deviceDetail',
      { id: device.id },
      accessToken,
    );
    await postJson(
      base,
      '/api/deviceAlarmRule/saveAlarmSetting',
      {
        carrier: 'sensor',
        targetId: detail.sensors[0]!.id,
        level: 1,
        alarmType: 'overLimit',
        min: 2,
        max: 8,
        repeat: 1,
        channels: ['email'],
        notifierIds: [me.id],
      },
      accessToken,
    );
    const now = Date.now();
    const up = await fetch(`${base}/device/v1/up`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`SIM1018:${device.deviceKey}`).toString('base64')}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        records: [
          { ts: now - 1000, channels: [{ ch: 1, v: 5 }] },
          { ts: now, channels: [{ ch: 1, v: 9.4 }] },
        ],
      }),
    });
    expect(up.status).toBe(200);

    const alarmsPage = () =>
      postJson<{ list: { id: string }[] }>(
        base,
        '/api/alarm/pageAlarms',
        { pageNum: 1, pageSize: 5, deviceId: device.id },
        accessToken,
      );
    const alarmId = await until(async () => (await alarmsPage()).list[0]?.id, 10_000);
    const statusOf = async (url: string, token: string) =>
      (
        await postJson<{ channel: string; status: string; attempts?: number }[]>(
          url,
          '/api/alarm/alarmNotifications',
          { id: alarmId },
          token,
        )
      )[0];
    // At least one attempt has failed against the closed port: the message waits for a retry.
    await until(async () => {
      const n = await statusOf(base, accessToken);
      return n && n.status !== 'pending' && n.status !== 'sent' ? n : undefined;
    }, 10_000);

    server.child.kill('SIGKILL');
    await new Promise((resolve) => server!.child.once('exit', resolve));

    const smtp = await startSmtpSink({ port: smtpPort });
    try {
      server = await startServerProcess(env);
      const ours = () => smtp.received.filter((m) => m.text.includes(DEVICE_NAME));
      await until(async () => (ours().length > 0 ? true : undefined), 20_000);
      // Give a duplicate every chance to show up: several poll and retry periods.
      await new Promise((r) => setTimeout(r, 2_500));
      expect(ours()).toHaveLength(1);
      expect(ours()[0]!.to).toEqual(['demo@example.com']);
      const { accessToken: again } = await postJson<{ accessToken: string }>(server.baseUrl, '/api/doLogin', {
        account: 'demo@example.com',
        password: 'Demo1234',
        type: 1,
        platform: 1,
      });
      expect((await statusOf(server.baseUrl, again))?.status).toBe('sent');
    } finally {
      await smtp.close();
    }
    // Two starts with the demo, each allowed 120 s by startServerProcess: on CI, beside the
    // browser lane, this took 42 s in one run and over 90 s in the next (18 s alone).
  }, 240_000);
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PushReadingItem, PushTestResult, SavedPushUrl } from '@coldchain/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, postJson, type ServerProcess, startServerProcess } from '../../test/server-process';
import { RECEIVER_HOST, type Receiver, startReceiver } from './push-test-support';

async function until<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await Promise.resolve(probe()).catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The push queue is in the database: readings acknowledged to a device before the server is
 * killed with SIGKILL all reach the receiver after the restart. Repeats may come (a delivery sent
 * when the kill struck is sent again), always with the same deliveryId and the same body.
 */
describe('push docking durability', () => {
  let server: ServerProcess | undefined;
  let receiver: Receiver | undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cc-push-'));
  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await receiver?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('delivers every acknowledged reading across a SIGKILL of the server', async () => {
    receiver = await startReceiver(RECEIVER_HOST);
    const env = {
      DATA_DIR: dataDir,
      DEMO: '1',
      PORT: String(await freePort()),
      MQTT_PORT: String(await freePort()),
      PUSH_ALLOW_HOSTS: RECEIVER_HOST,
      PUSH_POLL_MS: '200',
      PUSH_RETRY_BASE_MS: '300',
      PUSH_TIMEOUT_MS: '1000',
      PUSH_LEASE_MS: '2000',
    };
    server = await startServerProcess(env);
    const login = async (base: string) =>
      (
        await postJson<{ accessToken: string }>(base, '/api/doLogin', {
          account: 'demo@example.com',
          password: 'Demo1234',
          type: 1,
          platform: 1,
        })
      ).accessToken;
    let token = await login(server.baseUrl);
    const device = await postJson<{ id: string; deviceKey: string }>(
      server.baseUrl,
      '/api/device/addDevice',
      { serial: 'SIM1017', name: 'Push SIGKILL fridge' },
      token,
    );
    const saved = await postJson<SavedPushUrl>(
      server.baseUrl,
      '/api/push/saveUrl',
      { name: 'Durable receiver', url: receiver.url, events: ['reading'] },
      token,
    );
    const tested = await postJson<PushTestResult>(
      server.baseUrl,
      '/api/push/testUrl',
      { id: saved.id },
      token,
    );
    expect(tested.state).toBe(2);
    await postJson(server.baseUrl, '/api/push/setDevices', { id: saved.id, deviceIds: [device.id] }, token);

    const acknowledged: number[] = [];
    const t0 = Date.now() - 600_000;
    let n = 0;
    const send = async () => {
      const ts = t0 + ++n * 1000;
      const up = await fetch(`${server!.baseUrl}/device/v1/up`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`SIM1017:${device.deviceKey}`).toString('base64')}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ records: [{ ts, channels: [{ ch: 1, v: n }] }] }),
      }).catch(() => null);
      if (up?.status === 200) acknowledged.push(ts);
    };
    for (let i = 0; i < 30; i++) {
      await send();
      await new Promise((r) => setTimeout(r, 30));
    }
    // Killed mid-stream: some readings are queued, some deliveries may be on the wire.
    server.child.kill('SIGKILL');
    await new Promise((resolve) => server!.child.once('exit', resolve));
    server = await startServerProcess(env);
    token = await login(server.baseUrl);
    for (let i = 0; i < 10; i++) await send();

    const received = () =>
      new Set(receiver!.received.flatMap((r) => (r.body.items as PushReadingItem[]).map((item) => item.ts)));
    await until(() => (acknowledged.every((ts) => received().has(ts)) ? true : undefined), 30_000);
    expect(acknowledged.length).toBeGreaterThanOrEqual(35);
    // A repeat is the same delivery: same id, same bytes.
    const byId = new Map<string, string>();
    for (const r of receiver.received.filter((x) => x.body.event === 'reading')) {
      const seen = byId.get(r.body.deliveryId);
      if (seen !== undefined) expect(r.raw).toBe(seen);
      byId.set(r.body.deliveryId, r.raw);
    }
  }, 240_000);
});

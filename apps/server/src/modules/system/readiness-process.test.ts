import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort, startServerProcess } from '../../test/server-process';

describe('readiness and metrics of the real server process', () => {
  it('is ready once the embedded broker listens, and serves /metrics with METRICS_TOKEN', async () => {
    const token = 'process-metrics-token-0123';
    const server = await startServerProcess({
      PORT: String(await freePort()),
      MQTT_PORT: String(await freePort()),
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'cc-ready-')),
      DEMO: '0',
      METRICS_TOKEN: token,
    });
    try {
      // /healthz answers before the broker starts; /readyz only once run-server attached it.
      let ready: Response | null = null;
      for (let i = 0; i < 120 && ready?.status !== 200; i++) {
        if (ready) await new Promise((resolve) => setTimeout(resolve, 250));
        ready = await fetch(`${server.baseUrl}/readyz`);
      }
      expect(ready?.status).toBe(200);
      expect(await ready?.json()).toEqual({
        status: 'ready',
        checks: { database: 'ok', migrations: 'ok', mqtt: 'ok' },
      });
      expect((await fetch(`${server.baseUrl}/metrics`)).status).toBe(401);
      const metrics = await fetch(`${server.baseUrl}/metrics`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(metrics.status).toBe(200);
      const text = await metrics.text();
      expect(text).toContain('nodejs_eventloop_lag_seconds');
      expect(text).toContain('coldchain_db_pool_connections{state="total"} 1');
    } finally {
      server.child.kill('SIGTERM');
      await new Promise((resolve) => server.child.once('exit', resolve));
    }
  }, 180_000);
});

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureServerBundle } from './test/server-bundle';

function run(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [ensureServerBundle()], {
      cwd: path.resolve(import.meta.dirname, '..'),
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

async function takenPort(): Promise<{ port: number; release: () => void }> {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '0.0.0.0', resolve));
  return { port: (blocker.address() as { port: number }).port, release: () => blocker.close() };
}

describe('starting the server process', () => {
  it('stops with one line naming PORT when the HTTP port is taken', async () => {
    const taken = await takenPort();
    try {
      const { code, output } = await run({
        PORT: String(taken.port),
        MQTT_PORT: '0',
        DATA_DIR: mkdtempSync(path.join(tmpdir(), 'cc-')),
      });
      expect(code).toBe(1);
      expect(output).toContain(`Port ${taken.port} (PORT) is already in use. Set PORT to a free port`);
      expect(output).not.toMatch(/\n\s+at /);
    } finally {
      taken.release();
    }
  }, 60_000);

  it('stops with one line naming MQTT_PORT when the broker port is taken', async () => {
    const taken = await takenPort();
    try {
      const { code, output } = await run({
        PORT: '0',
        MQTT_PORT: String(taken.port),
        DATA_DIR: mkdtempSync(path.join(tmpdir(), 'cc-')),
      });
      expect(code).toBe(1);
      expect(output).toContain(`(MQTT_PORT) is already in use. Set MQTT_PORT to a free port`);
      expect(output).not.toMatch(/\n\s+at /);
    } finally {
      taken.release();
    }
  }, 60_000);

  it('stops with a message naming a bad setting', async () => {
    const { code, output } = await run({ PORT: 'abc' });
    expect(code).toBe(1);
    expect(output).toMatch(/Invalid configuration:\n\s+PORT:/);
  }, 60_000);
});

// The tests that start a server allow more than startServerProcess's own wait (up to 120 s per
// start): a cold start beside the browser suite's two servers took over 60 s on a slow machine.
describe('stopping the server process', () => {
  it('stops within the grace period on SIGTERM and exits 0', async () => {
    const { freePort, startServerProcess } = await import('./test/server-process');
    const server = await startServerProcess({
      PORT: String(await freePort()),
      MQTT_PORT: String(await freePort()),
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'cc-')),
      DEMO: '0',
      LOG_LEVEL: 'info',
    });
    const started = Date.now();
    server.child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => server.child.once('exit', (c) => resolve(c)));
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(server.output()).toContain('"signal":"SIGTERM"');
    expect(server.output()).not.toMatch(/\n\s+at /);
  }, 180_000);
});

describe('one process per embedded database', () => {
  it('refuses a second server on the same DATA_DIR with a message naming DATA_DIR', async () => {
    const { freePort, startServerProcess } = await import('./test/server-process');
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cc-'));
    const first = await startServerProcess({
      PORT: String(await freePort()),
      MQTT_PORT: String(await freePort()),
      DATA_DIR: dataDir,
      DEMO: '0',
    });
    try {
      const { code, output } = await run({ PORT: '0', MQTT_PORT: '0', DATA_DIR: dataDir, DEMO: '0' });
      expect(code).toBe(1);
      expect(output).toContain(
        `The embedded database in ${dataDir} is in use by the server (pid ${first.child.pid})`,
      );
      expect(output).not.toMatch(/\n\s+at /);
    } finally {
      first.child.kill('SIGTERM');
      await new Promise((r) => first.child.once('exit', r));
    }
    // Once the first has stopped, the folder is free again.
    const second = await startServerProcess({
      PORT: String(await freePort()),
      MQTT_PORT: String(await freePort()),
      DATA_DIR: dataDir,
      DEMO: '0',
    });
    second.child.kill('SIGTERM');
    await new Promise((r) => second.child.once('exit', r));
  }, 300_000);
});

describe('the first start with the demo', () => {
  it('seeds the demo in a process of its own, then opens the database as a restart does', async () => {
    const { freePort, postJson, startServerProcess } = await import('./test/server-process');
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cc-'));
    const server = await startServerProcess({
      PORT: String(await freePort()),
      MQTT_PORT: String(await freePort()),
      DATA_DIR: dataDir,
      DEMO: '1',
      LOG_LEVEL: 'info',
    });
    try {
      // pino writes the pid into every line: the seed's "created" line came from another process.
      const seedLines = server
        .output()
        .split('\n')
        .filter((line) => line.includes('"demo seed: '))
        .map((line) => JSON.parse(line) as { pid: number; created: boolean });
      expect(seedLines.map(({ created }) => created)).toEqual([true, false]);
      expect(seedLines[0]!.pid).not.toBe(server.child.pid);
      expect(seedLines[1]!.pid).toBe(server.child.pid);
      // The server holds the data directory, and the demo it did not write itself is all there.
      expect(readFileSync(path.join(dataDir, 'coldchain.lock'), 'utf8')).toBe(
        `${server.child.pid}\nthe server\n`,
      );
      const { accessToken } = await postJson<{ accessToken: string }>(server.baseUrl, '/api/doLogin', {
        account: 'demo@example.com',
        password: 'Demo1234',
        type: 1,
      });
      const page = await postJson<{ total: number }>(
        server.baseUrl,
        '/api/device/pageDevices',
        { pageNum: 1, pageSize: 20 },
        accessToken,
      );
      // The twelve monitors and the two loggers of the logistics story.
      expect(page.total).toBe(14);
    } finally {
      server.child.kill('SIGTERM');
      await new Promise((r) => server.child.once('exit', r));
    }
  }, 300_000);
});

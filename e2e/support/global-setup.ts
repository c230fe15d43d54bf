import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureServerBundle } from '../../apps/server/src/test/server-bundle';
import { startSmtpSink } from '../../apps/server/src/test/smtp-sink';
import { E2E_WORKERS } from './workers';

declare module 'vitest' {
  export interface ProvidedContext {
    /** One server per worker (vitest.config.ts): a worker's spec files use `servers[VITEST_POOL_ID - 1]`. */
    servers: E2eServer[];
  }
}

export interface E2eServer {
  baseUrl: string;
  /** Where the SMTP sink writes each mail the server sends, one JSON file per mail (support/mail.ts). */
  mailDir: string;
}

const root = path.resolve(import.meta.dirname, '../..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Up to 180 s: each worker's server starts with the demo while the server lane's suite
 * keeps both cores busy, and on a slow machine two such starts side by side took over 60 s.
 */
const HEALTH_WAIT_S = 180;

async function waitForHealth(url: string, child: ChildProcess, log: () => string) {
  const deadline = Date.now() + HEALTH_WAIT_S * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${log()}`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server did not answer /healthz in ${HEALTH_WAIT_S} s:\n${log()}`);
}

/**
 * Starts a server the way `npm start` does (embedded PGlite in a fresh DATA_DIR, demo seed,
 * embedded broker, the built console), on free ports, with its own SMTP sink.
 */
async function startServer(): Promise<{ server: E2eServer; stop: () => Promise<void> }> {
  const port = await freePort();
  const mqttPort = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cc-e2e-'));
  // A real SMTP server for the mails the server sends (registration codes, alarms); the spec
  // files run in other processes, so mails are handed over as files.
  const mailDir = mkdtempSync(path.join(tmpdir(), 'cc-e2e-mail-'));
  const smtp = await startSmtpSink();
  let mails = 0;
  smtp.onMail((mail) => {
    writeFileSync(path.join(mailDir, `${String(++mails).padStart(5, '0')}.json`), JSON.stringify(mail));
  });
  let output = '';
  // The bundle `npm start` runs, in one process, so stopping it stops the server itself.
  const child = spawn(process.execPath, [ensureServerBundle()], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      MQTT_PORT: String(mqttPort),
      DATA_DIR: dataDir,
      SMTP_URL: smtp.url,
      LOG_LEVEL: 'warn',
      // Push docking's receiver runs in the spec on this machine (specs/push-docking.spec.ts).
      PUSH_ALLOW_HOSTS: '127.0.0.1',
      PUSH_POLL_MS: '500',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHealth(baseUrl, child, () => output);
  return {
    server: { baseUrl, mailDir },
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      // Warnings and errors only (LOG_LEVEL above): a failed spec's server side, such as a
      // request that never got an answer (plugins/logger.ts), is read here.
      const logged = output.trim().split('\n').filter(Boolean);
      if (logged.length > 0)
        process.stderr.write(
          `\n-- the server at ${baseUrl} logged ${logged.length} lines; the last ones:\n${logged.slice(-80).join('\n')}\n--\n`,
        );
      await smtp.close();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(mailDir, { recursive: true, force: true });
    },
  };
}

/**
 * One server per worker. The specs' waits are mostly the browser's and the server's, not the
 * test runner's, so two files at a time finish the suite in far less time on 2 cores; a server
 * each keeps one file's writes (a renamed device, a new user) out of the other's screens.
 */
export default async function setup(project: TestProject) {
  const results = await Promise.allSettled(Array.from({ length: E2E_WORKERS }, () => startServer()));
  const started = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    await Promise.all(started.map((s) => s.stop()));
    throw failed.reason;
  }
  project.provide(
    'servers',
    started.map((s) => s.server),
  );
  return async () => {
    await Promise.all(started.map((s) => s.stop()));
  };
}

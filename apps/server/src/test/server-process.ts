import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { ensureServerBundle } from './server-bundle';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  output: () => string;
}

/**
 * Starts the server as `npm start` does (its bundle, in this one process, so a SIGKILL reaches the
 * server itself) and waits until /healthz answers. The demo is seeded unless `env` sets DEMO=0,
 * as with `npm start`; a test that needs no demo should say so, a seed costs seconds.
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  let output = '';
  // SERVER_NODE_FLAGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) profiles the server of a benchmark.
  const flags = (env.SERVER_NODE_FLAGS ?? process.env.SERVER_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...flags, ensureServerBundle()], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // SERVER_OUTPUT_FILE keeps what the server prints (a `--trace-gc` of SERVER_NODE_FLAGS, say).
  const keep = env.SERVER_OUTPUT_FILE ?? process.env.SERVER_OUTPUT_FILE;
  const record = (d: Buffer) => {
    output += d;
    if (keep) appendFileSync(keep, d);
  };
  child.stdout?.on('data', record);
  child.stderr?.on('data', record);
  const baseUrl = `http://127.0.0.1:${env.PORT}`;
  // Up to 120 s: two test lanes run side by side on two cores, and a start with the demo under that
  // load has been seen to take over a minute.
  for (let i = 0; i < 480; i++) {
    if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) return { child, baseUrl, output: () => output };
    } catch {
      // not yet listening
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not start: ${output}`);
}

export async function postJson<T>(baseUrl: string, url: string, body: unknown, token?: string): Promise<T> {
  const response = await fetch(`${baseUrl}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { accessToken: token } : {}) },
    body: JSON.stringify(body),
  });
  const envelope = (await response.json()) as { msgCode: number; msgContent: string; data: T };
  if (envelope.msgCode !== 200) throw new Error(`${url}: ${envelope.msgContent}`);
  return envelope.data;
}

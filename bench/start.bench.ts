/**
 * `npm run bench -- start`: start to first answer and resident memory of the server as `npm start`
 * runs it (the bundle in apps/server/dist, the embedded database, the demo), on a new data
 * directory (first start: the demo is seeded before the server answers) and again on the same one
 * (restart). Figures only; the goals (issue 23) are printed beside them.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../apps/server/src/test/server-process';
import { statusMb } from './alarm-probe';
import { cpuSeconds } from './process-cpu';

const root = path.resolve(import.meta.dirname, '..');

export interface StartFigures {
  /** Launch to the first `GET /healthz` 200, wall clock. */
  firstAnswerS: number;
  /** CPU of the whole process (server and database threads) until then, with the demo's seeding process. */
  cpuS: number;
  peakMb: number;
  /** The first start's demo seeding process (modules/demo/seed-process.ts): its resident peak, sampled. */
  seedPeakMb: number;
  /** Resident after `idleS` seconds without requests. */
  idleMb: number;
}

async function startOnce(dataDir: string, idleS: number): Promise<StartFigures> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, ['apps/server/dist/server.mjs'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), MQTT_PORT: String(await freePort()) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr.on('data', (d) => (errors += d));
  const pid = child.pid as number;
  let seedPeakMb = 0;
  try {
    for (;;) {
      seedPeakMb = Math.max(seedPeakMb, childrenResidentMb(pid));
      if (child.exitCode !== null) throw new Error(`server exited: ${errors}`);
      if (performance.now() - started > 120_000) throw new Error(`no answer within 120 s: ${errors}`);
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const firstAnswerS = (performance.now() - started) / 1000;
    const cpuS = cpuSeconds(pid, { withChildren: true });
    await new Promise((r) => setTimeout(r, idleS * 1000));
    return {
      firstAnswerS,
      cpuS,
      peakMb: statusMb(pid, 'VmHWM'),
      seedPeakMb,
      idleMb: statusMb(pid, 'VmRSS'),
    };
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}

/** Resident memory of the server's child processes now (the first start's seeding process). */
function childrenResidentMb(pid: number): number {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(' ')
      .filter(Boolean);
    return children.reduce((sum, child) => sum + statusMb(Number(child), 'VmRSS'), 0);
  } catch {
    return 0; // the process or a child has just ended
  }
}

/** `runs` pairs of (first start on a new directory, restart on it). */
export async function benchStart(options: { runs: number; idleS: number }) {
  // As `npm start` does before it runs the bundle.
  const build = spawnSync(process.execPath, ['scripts/build-server-if-stale.mjs'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('building the server bundle failed');
  const first: StartFigures[] = [];
  const restart: StartFigures[] = [];
  for (let i = 0; i < options.runs; i++) {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cc-bench-start-'));
    try {
      first.push(await startOnce(dataDir, options.idleS));
      restart.push(await startOnce(dataDir, options.idleS));
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return { first, restart };
}

import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../../../..');
const buildScript = path.join(root, 'scripts/build-server-if-stale.mjs');

/** The server as `npm start` runs it: one JavaScript bundle (scripts/build-server-if-stale.mjs). */
export const serverBundle = path.join(root, 'apps/server/dist/server.mjs');

let checked = false;

/**
 * Builds the server bundle and the embedded database template when a source is newer than them,
 * once per process; a check that finds them fresh takes a few milliseconds.
 *
 * Why tests start the bundle rather than `node --import tsx server.ts`: it is what `npm start`
 * runs, and it starts in about half the time, because tsx reads and transforms every source
 * file in each new process. Under two test lanes on two slow cores a tsx start took over a
 * minute and ran tests past their limits (docs/testing.md). The test runs' global set-ups call
 * this first, so test files that run side by side never build at the same time.
 */
export function ensureServerBundle(): string {
  // BENCH_SERVER_BUNDLE: another build, copied aside, to compare two versions in alternating runs.
  if (process.env.BENCH_SERVER_BUNDLE) return process.env.BENCH_SERVER_BUNDLE;
  if (checked) return serverBundle;
  const result = spawnSync(process.execPath, [buildScript], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0)
    throw new Error(`building the server bundle failed:\n${result.stdout}${result.stderr}`);
  checked = true;
  return serverBundle;
}

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../../lib/config';

/** Set in the environment of the process that seeds the demo (server.ts runs the seed alone in it). */
export const DEMO_SEED_PROCESS_ENV = 'COLDCHAIN_DEMO_SEED_PROCESS';

/** Raised when the seeding process failed; it printed its reason itself. */
export class DemoSeedProcessError extends Error {}

/**
 * Whether the demo is about to be seeded from nothing into a new embedded database: the first
 * start. A later start only back-fills the readings since the last one, which is cheap.
 */
export function firstDemoStart(config: Config): boolean {
  if (!config.demo || config.databaseUrl || config.dataDir === 'memory://') return false;
  return !existsSync(path.join(config.dataDir, 'pgdata', 'PG_VERSION'));
}

/**
 * Seeds the demo in a child process, before this one opens the database (docs/performance.md,
 * "Start and memory"). A week of history through the ingest path grows both threads' heaps and
 * the malloc arenas; V8 and glibc keep what they grew, so a server that seeded the demo itself
 * sat at 356-366 MB resident when idle, against 259-272 MB after a restart on the same data.
 * When the child exits all of it goes back to the system, and this process starts as a restart.
 *
 * The child runs the same entry point with the same Node options (the bundle, or the sources
 * under tsx), shares this terminal's output, and opens the database while this process holds
 * the data directory's lock and waits. Stopping this process stops the child, and so does its
 * death (`stopWithParent`).
 */
export function seedDemoInChildProcess(): Promise<void> {
  const entry = process.argv[1];
  if (!entry)
    return Promise.reject(
      new DemoSeedProcessError('The server has no entry file to run the demo seed with.'),
    );
  // A debugger's port cannot be shared with the child.
  const nodeOptions = process.execArgv.filter((option) => !option.startsWith('--inspect'));
  const child = spawn(process.execPath, [...nodeOptions, entry], {
    env: { ...process.env, [DEMO_SEED_PROCESS_ENV]: '1' },
    // The channel closes when this process dies, even by SIGKILL: the child then stops too.
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  });
  const stopChild = () => child.kill('SIGTERM');
  process.once('SIGTERM', stopChild);
  process.once('SIGINT', stopChild);
  return new Promise<void>((resolve, reject) => {
    child.once('error', (error) =>
      reject(new DemoSeedProcessError(`The demo seed could not start: ${error.message}`)),
    );
    child.once('exit', (code, signal) => {
      process.off('SIGTERM', stopChild);
      process.off('SIGINT', stopChild);
      if (code === 0) resolve();
      else
        reject(
          new DemoSeedProcessError(
            signal
              ? `The demo seed was stopped (${signal}).`
              : `The demo seed failed (exit code ${code}); its reason is printed above. Start again to retry, or set DEMO=0.`,
          ),
        );
    });
  });
}

/** In the seeding child: stops when the server that started it is gone, rather than seed for no one. */
export function stopWithParent() {
  process.once('disconnect', () => process.exit(1));
}

import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

export interface RunningSimulator {
  process: ChildProcess;
  /** What it printed so far: an assertion's message when readings do not arrive. */
  log(): string;
  /** Stops it and waits until it exited. */
  stop(): Promise<void>;
}

/**
 * The device simulator (tools/simulator) as a logger in the field: one device reporting over
 * HTTP every second to the e2e server, with the serial and device key a test registered.
 * Outages are off: the specs are about readings arriving, not about the back-fill after a cut.
 */
export function startSimulator(baseUrl: string, serial: string, key: string): RunningSimulator {
  let output = '';
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'tools/simulator/src/cli.ts',
      ...['--devices', '1', '--interval', '1s', '--http', baseUrl],
      ...['--serials', serial, `--keys=${key}`, '--outages', 'off'],
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  return {
    process: child,
    log: () => output,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

#!/usr/bin/env node
// Runs test lanes side by side and fails when any lane fails.
//
//   node scripts/run-lanes.mjs "server=npm run test:server" "console=npm run test:web && npm run test:e2e"
//
// Why: the suites wait on sockets, timers, child processes and the browser as much as they
// compute, so two lanes on a 2-core machine finish well before the same work in a row (CI must
// stay under 25 minutes). Each line is printed as it comes, prefixed with its lane's name, so a
// slow or stuck lane shows where it is; a summary with each lane's time and result ends the run.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const lanes = process.argv.slice(2).map((arg, index) => {
  const split = arg.indexOf('=');
  return split > 0
    ? { name: arg.slice(0, split), command: arg.slice(split + 1) }
    : { name: `lane${index + 1}`, command: arg };
});

if (lanes.length === 0) {
  console.error('usage: node scripts/run-lanes.mjs "name=command" ["name=command" ...]');
  process.exit(2);
}

const width = Math.max(...lanes.map((lane) => lane.name.length));

function runLane(lane) {
  const started = Date.now();
  const prefix = `[${lane.name.padEnd(width)}] `;
  const child = spawn(lane.command, {
    shell: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Colour codes would be interleaved between lanes; plain text reads better in CI logs.
    env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
  });
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      process.stdout.write(`${prefix}${line}\n`);
    });
  }
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      resolve({ ...lane, code: code ?? 1, signal, seconds: Math.round((Date.now() - started) / 1000) });
    });
  });
}

// A Ctrl-C stops every lane, not only this script.
process.on('SIGINT', () => process.exit(130));

const results = await Promise.all(lanes.map(runLane));
console.log('\n== lanes');
for (const result of results) {
  const verdict = result.code === 0 ? 'passed' : `FAILED (${result.signal ?? `exit ${result.code}`})`;
  console.log(`${result.name.padEnd(width)}  ${verdict}  ${result.seconds} s  ${result.command}`);
}
process.exit(results.every((result) => result.code === 0) ? 0 : 1);

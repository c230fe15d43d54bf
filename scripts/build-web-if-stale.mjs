// Builds the console when its bundle is missing or older than its sources, so `npm start` is
// quick after the first run and never serves a stale console.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const bundle = path.join(root, 'apps/web/dist/index.html');
const sources = [
  'apps/web/src',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/scripts',
  'apps/web/public',
  'packages/contract/src',
];

function newestChange(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestChange(path.join(target, entry)));
  return newest;
}

const builtAt = existsSync(bundle) ? statSync(bundle).mtimeMs : 0;
const changedAt = Math.max(...sources.map((s) => newestChange(path.join(root, s))));
if (builtAt > changedAt) {
  console.log('console bundle is up to date');
} else {
  console.log(builtAt ? 'console sources changed: rebuilding' : 'building the console (first start)');
  const result = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
  process.exit(result.status ?? 1);
}

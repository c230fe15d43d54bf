import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { migratedDump } from '../db/client';
import { ensureServerBundle } from './server-bundle';

/**
 * Builds the server bundle when stale, and the migrated embedded database once per run
 * (`pgliteTemplate`, declared in test-database.ts); every test file on PGlite starts from a copy
 * of it (test-database.ts).
 */
export default async function setup(project: TestProject) {
  // Before any file runs: the files that start the server as a process use its bundle, and
  // files running side by side must not build it at the same time (server-bundle.ts).
  ensureServerBundle();
  if (process.env.TEST_DATABASE_URL) {
    project.provide('pgliteTemplate', '');
    return;
  }
  const dump = await migratedDump();
  const dir = mkdtempSync(path.join(tmpdir(), 'cc-test-template-'));
  const file = path.join(dir, 'migrated.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', file);
  return () => rmSync(dir, { recursive: true, force: true });
}

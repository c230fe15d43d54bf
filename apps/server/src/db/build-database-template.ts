/**
 * `node apps/server/dist/build-database-template.mjs [dir]` (run by scripts/build-server-if-stale.mjs):
 * builds the embedded database template (database-template.ts) the way the server builds a new
 * database: PGlite's initdb, then every migration, then a clean shutdown.
 */
import { renameSync, rmSync } from 'node:fs';
import { openDatabase } from './client';
import { currentStamp, DATABASE_TEMPLATE_DIR, writeTemplateStamp } from './database-template';

async function main() {
  const target = process.argv[2] ?? DATABASE_TEMPLATE_DIR;
  const building = `${target}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  // In this thread: nothing else runs here, and a template must not start from a template.
  const database = await openDatabase({ dataDir: building, thread: false });
  await database.close();
  writeTemplateStamp(building, currentStamp());
  rmSync(target, { recursive: true, force: true });
  renameSync(building, target);
}

main().catch((error: unknown) => {
  console.error('Could not build the embedded database template:', error);
  process.exit(1);
});

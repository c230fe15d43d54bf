import { readFileSync } from 'node:fs';
import { BackupError, backupDatabase, restoreDatabase } from './db/backup';
import { openDatabase } from './db/client';
import { ConfigError, loadConfig } from './lib/config';
import { DataDirLockedError, lockDataDir } from './lib/data-dir-lock';
import { isOrdersCommand, ORDERS_USAGE, runOrdersCommand } from './modules/billing/orders-admin';
import { FILES_USAGE, runFilesCommand } from './modules/files/store/files-admin';
import { FileStoreError } from './modules/files/store/store';
import { addInventory } from './modules/inventory/inventory.service';
import { parseInventoryCsv } from './modules/inventory/inventory-csv';
import { isOperatorCommand, OPERATORS_USAGE, runOperatorCommand } from './modules/operator/operators-admin';

const USAGE = `Usage: npm run admin -- inventory import <file.csv>
       npm run admin -- backup <file>
       npm run admin -- restore <file>

  inventory import   adds loggers to the device inventory (serials users can then add to a company).
                     CSV header: serial,model,version,channels
                     channels: type:unit:min:max joined by |, e.g. temperature:°C:-40:85|humidity:%RH:0:100
  backup             the whole database into one file: pg_dump's custom format with DATABASE_URL
                     (the server may run), else the embedded DATA_DIR as a gzip tarball.
  restore            a backup of the same kind: pg_restore --clean into DATABASE_URL, or the
                     embedded DATA_DIR (the current one is kept as pgdata.before-restore-<time>).
  ${ORDERS_USAGE}
  ${OPERATORS_USAGE}
  ${FILES_USAGE}
Uses DATABASE_URL, or the embedded database in DATA_DIR (stop the server first).`;

/** Operator commands that act on the database directly. */
async function main(argv: string[]): Promise<number> {
  const [area, action, file] = argv;
  if (area === 'orders' && isOrdersCommand(argv)) {
    return withDatabase((db) => runOrdersCommand(db, argv, console.log, console.error));
  }
  if ((area === 'backup' || area === 'restore') && action) return backupCommand(area, action);
  if (area === 'files' && action === 'copy') return runFilesCommand(loadConfig(), console.log);
  if (area === 'operator' && isOperatorCommand(argv)) {
    return withDatabase((db) => runOperatorCommand(db, argv, console.log, console.error));
  }
  if (area !== 'inventory' || action !== 'import' || !file) {
    console.error(USAGE);
    return 2;
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    console.error(`Cannot read ${file}: ${(error as Error).message}`);
    return 1;
  }
  const { items, problems } = parseInventoryCsv(text);
  for (const p of problems) console.error(`line ${p.line}: ${p.reason}`);
  if (problems.length > 0) {
    console.error(`Nothing imported: fix the ${problems.length} line(s) above.`);
    return 1;
  }
  const config = loadConfig();
  const unlock = config.databaseUrl ? () => undefined : lockDataDir(config.dataDir, 'npm run admin');
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  try {
    const added = await addInventory(database.db, items);
    console.log(`${added} serial(s) added to the inventory, ${items.length - added} already there.`);
    return 0;
  } finally {
    await database.close();
    unlock();
  }
}

/** `backup <file>` and `restore <file>`; the embedded database needs the server stopped. */
async function backupCommand(command: 'backup' | 'restore', file: string): Promise<number> {
  const config = loadConfig();
  const unlock = config.databaseUrl
    ? () => undefined
    : lockDataDir(config.dataDir, `npm run admin -- ${command}`);
  const target = { ...(config.databaseUrl ? { url: config.databaseUrl } : {}), dataDir: config.dataDir };
  try {
    if (command === 'backup') {
      await backupDatabase(target, file);
      console.log(
        `Backed up ${config.databaseUrl ? 'the PostgreSQL database' : config.dataDir} into ${file}.`,
      );
    } else {
      const { keptAs } = await restoreDatabase(target, file);
      console.log(`Restored ${file}.${keptAs ? ` The data it replaced is kept in ${keptAs}.` : ''}`);
      console.log('Start the server: it applies any newer migrations.');
    }
    return 0;
  } catch (error) {
    if (!(error instanceof BackupError)) throw error;
    console.error(error.message);
    return 1;
  } finally {
    unlock();
  }
}

/** Opens the database the way the server does, holding the DATA_DIR lock while it is open. */
async function withDatabase(work: (db: Awaited<ReturnType<typeof openDatabase>>['db']) => Promise<number>) {
  const config = loadConfig();
  const unlock = config.databaseUrl ? () => undefined : lockDataDir(config.dataDir, 'npm run admin');
  try {
    const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
    try {
      return await work(database.db);
    } finally {
      await database.close();
    }
  } finally {
    unlock();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const known =
      error instanceof ConfigError || error instanceof DataDirLockedError || error instanceof FileStoreError;
    console.error(known ? (error as Error).message : `The command failed: ${(error as Error).message}`);
    process.exit(1);
  },
);

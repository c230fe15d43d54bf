// The embedded database's own thread (see pglite-proxy.ts): PGlite runs PostgreSQL as WebAssembly,
// and every statement blocks the thread it runs on. Here it blocks this one, not the thread that
// serves devices, the console and the live sockets. Plain JavaScript so that it starts the same
// under `node`, `tsx` and the test runner.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

const identity = (value) => value;
const db = new PGlite(workerData.dataDir ?? undefined);

/** The fields of a PostgreSQL error worth keeping across threads (a thrown Error loses them). */
const ERROR_FIELDS = [
  'code',
  'severity',
  'detail',
  'hint',
  'position',
  'schema',
  'table',
  'column',
  'constraint',
  'where',
];

function serialiseError(error) {
  const plain = { name: error?.name ?? 'Error', message: String(error?.message ?? error) };
  for (const field of ERROR_FIELDS) if (error?.[field] !== undefined) plain[field] = error[field];
  return plain;
}

async function run({ op, sql, params, rowMode, rawTypes }) {
  if (op === 'query') {
    // Types the driver parses itself arrive as text, as they would in-process.
    const parsers = rawTypes ? Object.fromEntries(rawTypes.map((oid) => [oid, identity])) : undefined;
    const { rows, fields, affectedRows } = await db.query(sql, params, { rowMode, parsers });
    return { rows, fields, affectedRows };
  }
  if (op === 'exec') {
    const results = await db.exec(sql);
    return results.map(({ rows, fields, affectedRows }) => ({ rows, fields, affectedRows }));
  }
  if (op === 'close') {
    await db.close();
    return null;
  }
  throw new Error(`unknown operation ${op}`);
}

parentPort.on('message', (message) => {
  run(message).then(
    (result) => parentPort.postMessage({ id: message.id, result }),
    (error) => parentPort.postMessage({ id: message.id, error: serialiseError(error) }),
  );
});

db.waitReady.then(
  () => parentPort.postMessage({ ready: true }),
  (error) => parentPort.postMessage({ ready: false, error: serialiseError(error) }),
);

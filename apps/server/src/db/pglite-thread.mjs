// The embedded database's own thread (see pglite-proxy.ts): PGlite runs PostgreSQL as WebAssembly,
// and every statement blocks the thread it runs on. Here it blocks this one, not the thread that
// serves devices, the console and the live sockets. Plain JavaScript so that it starts the same
// under `node`, `tsx` and the test runner.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

const identity = (value) => value;
// PostgreSQL settings after PGlite's own start parameters (pglite-settings.ts, settingsAsStartParams).
const startParams = [
  ...PGlite.defaultStartParams,
  ...Object.entries(workerData.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
];
const db = new PGlite(workerData.dataDir ?? undefined, { startParams });

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

/** The mark of a statement to plan once (db/planned-once.ts; keep the two in step). */
const PLANNED_ONCE = '/*planned-once*/';
/** A bound on prepared statements, should a caller mark one whose text varies. */
const MAX_PREPARED = 64;
const preparedNames = new Map();

/** A parameter as an SQL literal; quoted even for numbers, so the prepared statement's type applies. */
const literal = (value) =>
  value === null || value === undefined ? 'NULL' : `'${String(value).replaceAll("'", "''")}'`;
/** `execute name(literals)`: EXECUTE takes no bound parameters, so each one is written out. */
const executeText = (name, literals) =>
  literals.length > 0 ? `execute ${name}(${literals.join(', ')})` : `execute ${name}`;
const isPlain = (value) =>
  value === null || value === undefined || ['string', 'number', 'boolean'].includes(typeof value);

/**
 * Runs a statement marked PLANNED_ONCE as a prepared statement of this session: prepared at its
 * first use, then executed with its parameters as literals (EXECUTE takes no bound parameters)
 * on its generic plan. PostgreSQL parses and plans a statement every time it is sent unnamed;
 * for ingest's and the alarm engine's statements that took three times as long as running them.
 * Prepared statements outlive a rolled-back transaction, and PostgreSQL plans them again when a
 * table they use changes.
 */
async function queryPlannedOnce(sql, params, options) {
  let name = preparedNames.get(sql);
  if (!name) {
    if (preparedNames.size >= MAX_PREPARED) return db.query(sql, params, options);
    name = `planned_once_${preparedNames.size + 1}`;
    await db.query(`prepare ${name} as ${sql}`);
    preparedNames.set(sql, name);
  }
  // The generic plan, planned once: by default PostgreSQL plans each execution again for its
  // values (it judged these array-driven statements' generic plans costlier on paper), and the
  // planning took longer than the execution. The setting is back at once, and a failed
  // statement's (implicit or explicit) transaction rolls it back too.
  const [, result] = await db.exec(
    `set plan_cache_mode = force_generic_plan; ${executeText(name, (params ?? []).map(literal))}; reset plan_cache_mode`,
    options,
  );
  return result;
}

/**
 * Every other statement the server repeats is prepared too, on its second sighting (one seen once
 * may never come back: a list of varying length, a one-off), and executed as above but on
 * PostgreSQL's own choice of plan: an unnamed statement is parsed and planned at each run, which
 * for a console call's short statements (a row by its key, an audit link) was most of their
 * 0.4-0.6 ms. Only statements PREPARE takes, with a few short plain parameters (each one becomes
 * a literal in the EXECUTE's text); the least recently used are deallocated past a bound.
 */
const AUTO_PREPARED_MAX = 256;
const SEEN_ONCE_MAX = 2048;
const AUTO_PARAMS_MAX = 64;
const AUTO_PARAM_CHARS_MAX = 2048;
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;
/** Statement text -> its prepared name and which parameters are timestamptz, least recently used first. */
const autoPrepared = new Map();
const seenOnce = new Set();
let autoNames = 0;

const autoPreparable = (sql, params) =>
  PREPARABLE.test(sql) &&
  (params ?? []).length <= AUTO_PARAMS_MAX &&
  (params ?? []).every((p) => isPlain(p) && (typeof p !== 'string' || p.length <= AUTO_PARAM_CHARS_MAX));

const instant = (ms) =>
  ms === Infinity ? 'infinity' : ms === -Infinity ? '-infinity' : new Date(ms).toISOString();

async function queryAutoPrepared(sql, params, options) {
  let prepared = autoPrepared.get(sql);
  if (prepared) {
    autoPrepared.delete(sql);
    autoPrepared.set(sql, prepared);
  } else if (!seenOnce.has(sql)) {
    seenOnce.add(sql);
    if (seenOnce.size > SEEN_ONCE_MAX) seenOnce.delete(seenOnce.values().next().value);
    return db.query(sql, params, options);
  } else {
    seenOnce.delete(sql);
    const name = `auto_prepared_${++autoNames}`;
    await db.query(`prepare ${name} as ${sql}`);
    const { rows } = await db.query(
      'select parameter_types::text[] as types from pg_prepared_statements where name = $1',
      [name],
    );
    prepared = { name, timestamps: (rows[0]?.types ?? []).map((t) => t === 'timestamp with time zone') };
    autoPrepared.set(sql, prepared);
    if (autoPrepared.size > AUTO_PREPARED_MAX) {
      const [oldest, old] = autoPrepared.entries().next().value;
      autoPrepared.delete(oldest);
      await db.query(`deallocate ${old.name}`);
    }
  }
  // As PGlite's driver sends them: a number for a timestamptz is an instant in milliseconds.
  const literals = (params ?? []).map((p, i) =>
    literal(typeof p === 'number' && prepared.timestamps[i] ? instant(p) : p),
  );
  const [result] = await db.exec(executeText(prepared.name, literals), options);
  return result;
}

async function run({ op, sql, params, rowMode, rawTypes }) {
  if (op === 'query') {
    // Types the driver parses itself arrive as text, as they would in-process.
    const parsers = rawTypes ? Object.fromEntries(rawTypes.map((oid) => [oid, identity])) : undefined;
    const plannedOnce = sql.startsWith(PLANNED_ONCE) && (params ?? []).every(isPlain);
    const { rows, fields, affectedRows } = plannedOnce
      ? await queryPlannedOnce(sql, params, { rowMode, parsers })
      : autoPreparable(sql, params)
        ? await queryAutoPrepared(sql, params, { rowMode, parsers })
        : await db.query(sql, params, { rowMode, parsers });
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

/**
 * Messages run one after another, each to its end. A planned-once or auto-prepared statement takes
 * several steps (prepare, then execute), and the main thread sends statements without waiting for
 * the previous answer (pglite-proxy.ts): a transaction's BEGIN sent meanwhile must not slip
 * between the steps and take the statement into that transaction. Today each step finishes before
 * the next message is even dispatched (PGlite's work is synchronous WebAssembly); this keeps the
 * order should a step ever wait for I/O.
 */
let previous = Promise.resolve();
parentPort.on('message', (message) => {
  previous = previous.then(() =>
    run(message).then(
      (result) => parentPort.postMessage({ id: message.id, result }),
      (error) => parentPort.postMessage({ id: message.id, error: serialiseError(error) }),
    ),
  );
});

db.waitReady.then(
  () => parentPort.postMessage({ ready: true }),
  (error) => parentPort.postMessage({ ready: false, error: serialiseError(error) }),
);

// The embedded database's own thread (see pglite-proxy.ts): PGlite runs PostgreSQL as WebAssembly,
// and every statement blocks the thread it runs on. Here it blocks this one, not the thread that
// serves devices, the console and the live sockets. Plain JavaScript so that it starts the same
// under `node`, `tsx` and the test runner.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import {
  answersIn,
  bindMessage,
  closeStatementMessage,
  DESCRIBE_PORTAL,
  describeStatementMessage,
  EXECUTE,
  joined,
  parseMessage,
  queryMessage,
  resultOf,
  SYNC,
} from './pglite-wire.mjs';

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
/** A bound on statements prepared for their mark, should a caller mark one whose text varies. */
const MAX_PREPARED = 64;
/** Other statements, prepared at their second sighting; the least recently used are closed past this. */
const AUTO_PREPARED_MAX = 256;
const SEEN_ONCE_MAX = 2048;
/** Statements that take parameters and are worth keeping planned (BEGIN, SET or DDL are sent as text). */
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;

/** Statement text -> its prepared statement's name and its parameters' types. */
const plannedOnceStatements = new Map();
/** The same for the statements prepared at their second sighting, least recently used first. */
const autoPrepared = new Map();
const seenOnce = new Set();
let autoNames = 0;

/** What PostgreSQL wrote during a call: copies of its output, gathered as it is written. */
let output = [];
const gather = (chunk) => {
  output.push(Buffer.from(chunk));
  return chunk.length;
};

/**
 * One call into PostgreSQL with the protocol messages `parts`; the answers, split at each
 * ReadyForQuery (one per Sync or simple Query; pglite-wire.mjs). PGlite's own `query` made six
 * calls for one statement (parse, describe, bind, describe, execute, sync) and `exec` two, each
 * through its locks; the messages of one statement in one call cost about half
 * (docs/performance.md, "The embedded database's calls"). PostgreSQL answers each part as if it
 * came alone: an error skips to the next Sync, so a failed statement leaves the ones after it as
 * they would have been. The output is read raw (`execProtocolRawStream`) and parsed here: PGlite's
 * `execProtocol` parses it with pg-protocol's parser, which cost the thread more than this.
 */
async function call(parts) {
  output = [];
  try {
    await db.execProtocolRawStream(joined(parts), { syncToFs: false, onRawData: gather });
    return answersIn(output.length === 1 ? output[0] : Buffer.concat(output));
  } finally {
    output = [];
  }
}

/** Parses `sql` as the statement `name` ('': the unnamed one); answers its parameters' types. */
async function prepare(name, sql) {
  const [answer] = await call([parseMessage(name, sql), describeStatementMessage(name), SYNC]);
  if (answer.error) throw answer.error;
  return answer.parameterTypes ?? [];
}

/** Parameters as text, serialised by their types as PGlite's `query` does. */
function textsOf(params, types) {
  return (params ?? []).map((value, i) => {
    if (value === null || value === undefined) return null;
    const serializer = db.serializers[types[i]];
    return serializer ? serializer(value) : value.toString();
  });
}

/** Binds and runs a parsed statement: Bind, Describe, Execute and Sync, answered together. */
function execution(name, params, types) {
  return [bindMessage(name, textsOf(params, types)), DESCRIBE_PORTAL, EXECUTE, SYNC];
}

const ON_GENERIC_PLAN = queryMessage('set plan_cache_mode = force_generic_plan');
const OFF_GENERIC_PLAN = queryMessage('reset plan_cache_mode');

/**
 * A prepared statement's run; a `generic` one (planned once) runs between the plan setting and
 * its reset, which runInOrder sends once around each run of such statements.
 */
const runOf = (statement, params, generic) => ({
  parts: execution(statement.name, params, statement.types),
  generic,
});

/**
 * How a statement runs once nothing needs preparing first: its protocol messages (one answer)
 * and whether it runs on the generic plan; null when it must first be prepared (a call of its
 * own, whose answer the run needs) or is not a statement.
 *
 * A statement marked PLANNED_ONCE runs as a prepared statement of this session on its generic
 * plan: by default PostgreSQL plans each execution again for its values (it judged these
 * array-driven statements' generic plans costlier on paper), and the planning took longer than
 * the execution. The plan mode is set for such statements alone, in the same call, one setting
 * and one reset around each run of them that came together (runInOrder); when a statement fails
 * in a transaction, the rollback undoes the setting. Every other statement the
 * server repeats is prepared too, and runs on PostgreSQL's own choice of plan (an unnamed
 * statement is parsed and planned at each run, which for a console call's short statements was
 * most of their cost). Finding one marks it the most recently used.
 */
function ready({ op, sql, params }) {
  if (op !== 'query') return null;
  if (sql.startsWith(PLANNED_ONCE)) {
    const statement = plannedOnceStatements.get(sql);
    return statement ? runOf(statement, params, true) : null;
  }
  if (PREPARABLE.test(sql)) {
    const statement = autoPrepared.get(sql);
    if (!statement) return null;
    autoPrepared.delete(sql);
    autoPrepared.set(sql, statement);
    return runOf(statement, params, false);
  }
  // BEGIN, COMMIT, SET, DDL: without parameters, a simple query is one call.
  if ((params ?? []).length === 0) return { parts: [queryMessage(sql)], generic: false };
  return null;
}

/**
 * The preparation a statement that is not `ready` needs, then its run. A marked statement is
 * prepared at its first use (at most MAX_PREPARED). Another repeated one is prepared at its
 * second sighting (one seen once may never come back: a list of varying length, a one-off), the
 * least recently used closed past AUTO_PREPARED_MAX. The rest are parsed for this run only.
 */
async function prepared({ sql, params }) {
  if (sql.startsWith(PLANNED_ONCE) && plannedOnceStatements.size < MAX_PREPARED) {
    const name = `planned_once_${plannedOnceStatements.size + 1}`;
    const statement = { name, types: await prepare(name, sql) };
    plannedOnceStatements.set(sql, statement);
    return runOf(statement, params, true);
  }
  if (!sql.startsWith(PLANNED_ONCE) && PREPARABLE.test(sql)) {
    if (seenOnce.delete(sql)) {
      const name = `auto_prepared_${++autoNames}`;
      const statement = { name, types: await prepare(name, sql) };
      autoPrepared.set(sql, statement);
      if (autoPrepared.size > AUTO_PREPARED_MAX) {
        const [oldest, old] = autoPrepared.entries().next().value;
        autoPrepared.delete(oldest);
        await call([closeStatementMessage(old.name), SYNC]);
      }
      return runOf(statement, params, false);
    }
    seenOnce.add(sql);
    if (seenOnce.size > SEEN_ONCE_MAX) seenOnce.delete(seenOnce.values().next().value);
  }
  return runOf({ name: '', types: await prepare('', sql) }, params, false);
}

/** What is not a statement to run: an `exec` (several statements in one text) and the close. */
async function run({ op, sql }) {
  if (op === 'exec') return (await db.exec(sql)).map(shaped);
  if (op === 'close') {
    await db.close();
    return null;
  }
  throw new Error(`unknown operation ${op}`);
}

/**
 * PGlite's parsers, but for the types the driver parses itself (`rawTypes`), which arrive as
 * text, as they would in-process. Made once per set of types: given its own parsers, PGlite's
 * `parseResults` copies its hundreds of parsers into a new object at every call, which was half
 * of the thread's time under a load of short statements.
 */
const parserSets = new Map();
function parsersLeaving(rawTypes) {
  if (!rawTypes || rawTypes.length === 0) return db.parsers;
  const key = rawTypes.join(',');
  let parsers = parserSets.get(key);
  if (!parsers) {
    parsers = { ...db.parsers, ...Object.fromEntries(rawTypes.map((oid) => [oid, identity])) };
    if (parserSets.size < 16) parserSets.set(key, parsers);
  }
  return parsers;
}

const answer = (message, result) => parentPort.postMessage({ id: message.id, result });
const refuse = (message, error) => parentPort.postMessage({ id: message.id, error: serialiseError(error) });
/** What crosses back: the rows, and the command tag (a COMMIT that rolled back says ROLLBACK). */
const shaped = ({ rows, fields, affectedRows, command }) => ({ rows, fields, affectedRows, command });

/**
 * The messages that came while the database was busy, run in order, each to its end. Those
 * ready to run (above) go into PostgreSQL together, in one call: about a third of a short
 * statement's cost was the call itself. Each keeps its own Sync, so each is answered, and fails,
 * as if it had come alone. A statement that must first be prepared is prepared after those
 * before it have been answered, then runs with those after it; an `exec` or the close runs alone,
 * in its place.
 */
async function runInOrder(messages) {
  let together = [];
  const sendTogether = async () => {
    const group = together;
    together = [];
    if (group.length === 0) return;
    // The parts in order, the plan mode set before each run of planned-once statements and reset
    // after it; `owns[i]` is the index of group[i]'s own answer among all the call's answers.
    const parts = [];
    const owns = [];
    let answers = 0;
    let generic = false;
    const planMode = (on) => {
      if (on === generic) return;
      parts.push(on ? ON_GENERIC_PLAN : OFF_GENERIC_PLAN);
      answers += 1;
      generic = on;
    };
    for (const { plan } of group) {
      planMode(plan.generic);
      parts.push(...plan.parts);
      owns.push(answers);
      answers += 1;
    }
    planMode(false);
    let answered;
    try {
      answered = await call(parts);
    } catch (error) {
      for (const { message } of group) refuse(message, error);
      return;
    }
    group.forEach(({ message }, i) => {
      const own = answered[owns[i]];
      try {
        if (!own) throw new Error('the embedded database gave no answer to a statement');
        // resultOf gives what crosses back: rows, fields, affectedRows and the command's tag.
        answer(message, resultOf(own, message.rowMode, parsersLeaving(message.rawTypes)));
      } catch (error) {
        refuse(message, error);
      }
    });
  };
  for (const message of messages) {
    const plan = ready(message);
    if (plan) {
      together.push({ message, plan });
      continue;
    }
    // What comes before a preparation runs before it (a Parse in a failed transaction fails).
    await sendTogether();
    if (message.op === 'query') {
      await prepared(message).then(
        (run) => together.push({ message, plan: run }),
        (error) => refuse(message, error),
      );
      continue;
    }
    await run(message).then(
      (result) => answer(message, result),
      (error) => refuse(message, error),
    );
  }
  await sendTogether();
}

/**
 * Messages are gathered until the next turn of this thread's event loop, then run in order. While
 * a statement runs (synchronous WebAssembly) this thread takes no messages, so the statements
 * sent meanwhile, by concurrent requests or by one caller without waiting (a transaction's BEGIN
 * and first statement, an audit lock and its append), are there together when it has finished.
 * A planned-once or auto-prepared statement takes several steps (prepare, then execute): nothing
 * sent after it may slip between them (a BEGIN would take it into a transaction).
 */
const inbox = [];
let running = false;
async function runInbox() {
  while (inbox.length > 0) await runInOrder(inbox.splice(0));
  running = false;
}
parentPort.on('message', (message) => {
  inbox.push(message);
  if (running) return;
  running = true;
  setImmediate(runInbox);
});

db.waitReady.then(
  () => parentPort.postMessage({ ready: true }),
  (error) => parentPort.postMessage({ ready: false, error: serialiseError(error) }),
);

import { Worker } from 'node:worker_threads';

/** What a statement answers, as PGlite's `Results`. */
export interface ThreadResults {
  rows: unknown[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
  /** The command tag: a COMMIT of a transaction a failed statement aborted answers ROLLBACK. */
  command?: string;
}

interface QueryOptions {
  rowMode?: 'array' | 'object';
  /** Drizzle passes identity parsers for the types it parses itself; only their type ids cross. */
  parsers?: Record<number, unknown>;
}

/** The part of PGlite that drizzle's driver uses, inside a transaction. */
export interface ThreadTransaction {
  query(sql: string, params?: unknown[], options?: QueryOptions): Promise<ThreadResults>;
  exec(sql: string): Promise<ThreadResults[]>;
}

interface Pending {
  resolve: (value: never) => void;
  reject: (error: Error) => void;
}

type Message =
  | { op: 'query'; sql: string; params?: unknown[]; rowMode?: 'array' | 'object'; rawTypes?: number[] }
  | { op: 'exec'; sql: string }
  | { op: 'close' };

/** A PostgreSQL error rebuilt on this side, with its code, detail and constraint. */
function rebuildError(plain: Record<string, unknown>): Error {
  const error = new Error(String(plain.message)) as Error & Record<string, unknown>;
  for (const [key, value] of Object.entries(plain)) if (key !== 'message') error[key] = value;
  return error;
}

/**
 * The embedded database in a thread of its own (`pglite-thread.mjs`), with the interface of
 * PGlite that drizzle uses: `query`, `exec`, `transaction`, `close`. PGlite's statements run
 * synchronously as WebAssembly; in the main thread each one froze MQTT, HTTP and the live sockets
 * for its duration (a batch insert for several milliseconds), which delayed every alarm under
 * load and left the second core idle. As in PGlite, one statement runs at a time and a
 * transaction holds the database until it ends; a statement outside it waits.
 */
export class PGliteThread {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private queue: Promise<unknown> = Promise.resolve();
  /** Transactions waiting for the database or holding it; statements queue behind them. */
  private transactions = 0;
  private failure: Error | null = null;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (message: { id: number; result?: unknown; error?: Record<string, unknown> }) => {
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if (message.error) waiting.reject(rebuildError(message.error));
      else waiting.resolve(message.result as never);
    });
    const fail = (error: Error) => {
      this.failure = error;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    worker.on('error', (error) => fail(new Error(`The embedded database stopped: ${error.message}`)));
    worker.on('exit', (code) => fail(new Error(`The embedded database stopped (thread exit ${code})`)));
  }

  /**
   * Starts the thread and waits until the database is open (`dataDir` undefined: in memory), with
   * PostgreSQL `settings` added to PGlite's start parameters (pglite-settings.ts). The thread is
   * created before this first awaits, so a caller can start it and do other work meanwhile.
   */
  static async start(
    dataDir?: string,
    settings: Readonly<Record<string, string>> = {},
  ): Promise<PGliteThread> {
    const worker = new Worker(new URL('./pglite-thread.mjs', import.meta.url), {
      workerData: { dataDir, settings },
      // The thread runs plain JavaScript: no TypeScript loader is needed (or wanted) there.
      execArgv: [],
    });
    await new Promise<void>((resolve, reject) => {
      const onMessage = (message: { ready?: boolean; error?: Record<string, unknown> }) => {
        if (message.ready === undefined) return;
        worker.off('message', onMessage);
        if (message.ready) resolve();
        else reject(rebuildError(message.error ?? { message: 'The embedded database did not open' }));
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
    });
    return new PGliteThread(worker);
  }

  query(sql: string, params?: unknown[], options?: QueryOptions): Promise<ThreadResults> {
    return this.statement(queryMessage(sql, params, options));
  }

  exec(sql: string): Promise<ThreadResults[]> {
    return this.statement({ op: 'exec', sql });
  }

  /**
   * A statement outside a transaction is sent at once when no transaction is waiting or running:
   * the thread runs messages in order, one at a time, so statements of concurrent requests queue
   * there and run back to back, instead of each waiting for the previous one's answer to cross
   * back to this thread (a round trip that cost more than a short read itself). Behind a
   * transaction it waits for its end, as it would in PGlite, but not for the statements waiting
   * with it: those are all sent as the transaction ends, in the order they came. (Released one
   * answer at a time, they fell behind the statements sent meanwhile: p99 near a second.)
   */
  private statement<T>(message: Message): Promise<T> {
    if (this.transactions === 0) return this.send(message);
    return this.queue.then(() => this.send(message));
  }

  /**
   * BEGIN, the callback's statements, COMMIT (ROLLBACK when it throws), with nothing in between.
   *
   * The database is handed to what waits (the next transaction, the statements queued behind
   * this one) as soon as COMMIT or ROLLBACK is sent, not when its answer is back: the thread runs
   * messages in order, so whatever is sent next runs after the transaction has ended. Waiting for
   * the answer left the database idle for a round trip between any two transactions (the
   * answer's crossing to this thread, then the next BEGIN's crossing back, each behind this
   * thread's event loop under load). The caller still hears of the transaction only once its
   * COMMIT has answered; a COMMIT that fails has ended the transaction all the same.
   */
  transaction<T>(callback: (tx: ThreadTransaction) => Promise<T>): Promise<T> {
    this.transactions++;
    let handOver!: () => void;
    const handedOver = new Promise<void>((resolve) => {
      handOver = resolve;
    });
    const previous = this.queue;
    this.queue = handedOver;
    const end = (statement: 'COMMIT' | 'ROLLBACK') => {
      const ended = this.send<ThreadResults>(queryMessage(statement));
      this.transactions--;
      handOver();
      return ended;
    };
    return previous.then(async () => {
      // BEGIN is not awaited before the first statement is sent: the thread runs messages in
      // order, so the statement still runs inside the transaction, and a round trip (which waits
      // for this thread's event loop under load) is saved on every transaction.
      const begun = this.send<ThreadResults>(queryMessage('BEGIN'));
      begun.catch(() => undefined);
      const tx: ThreadTransaction = {
        query: (sql, params, options) => this.send(queryMessage(sql, params, options)),
        exec: (sql) => this.send({ op: 'exec', sql }),
      };
      let result: T;
      try {
        result = await callback(tx);
        await begun;
      } catch (error) {
        await end('ROLLBACK').catch(() => undefined);
        throw error;
      }
      // A statement failed and its caller went on: PostgreSQL rolled everything back. PGlite in
      // the process says so (the tests run it there), and so does this.
      if ((await end('COMMIT')).command === 'ROLLBACK') throw rolledBack();
      return result;
    });
  }

  async close(): Promise<void> {
    if (!this.failure) await this.exclusive(() => this.send({ op: 'close' })).catch(() => undefined);
    await this.worker.terminate();
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private send<T>(message: Message): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: never) => void, reject });
      this.worker.postMessage({ id, ...message });
    });
  }
}

/** As PGlite's TransactionAbortedError: COMMIT rolled back a transaction a failed statement aborted. */
function rolledBack(): Error {
  return Object.assign(new Error('Transaction was rolled back instead of committed'), {
    code: '25P02',
    severity: 'ERROR',
  });
}

function queryMessage(sql: string, params?: unknown[], options?: QueryOptions): Message {
  return {
    op: 'query',
    sql,
    params,
    rowMode: options?.rowMode,
    rawTypes: options?.parsers ? Object.keys(options.parsers).map(Number) : undefined,
  };
}

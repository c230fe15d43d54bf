import type { PGlite } from '@electric-sql/pglite';
import type { PGliteThread, ThreadTransaction } from './pglite-proxy';

/**
 * How many times the database has changed, as this process saw it: every transaction that ended
 * and every statement outside one that is not a plain `select`. Answers computed while the count
 * stood still are what the database would give again (lib/answer-cache.ts).
 *
 * The embedded database is this process's alone (the data directory's lock), so its count is
 * complete from the start. A PostgreSQL server may also be written by other instances: there the
 * count also moves when another instance announces a change (db/pg-changes.ts), and it is
 * complete only while this instance is listening for those announcements.
 */
export class DatabaseChanges {
  private count = 0;
  private listening: boolean;
  private readonly listeners = new Set<() => void>();

  constructor(options: { complete: boolean } = { complete: true }) {
    this.listening = options.complete;
  }

  get generation(): number {
    return this.count;
  }

  /** Whether every change reaches the count; answers are reused only then. */
  get complete(): boolean {
    return this.listening;
  }

  /** A change made through this process: counted, then told to `onChange`'s listeners (the announcement to other instances). */
  noteChange(): void {
    this.count++;
    for (const listener of this.listeners) listener();
  }

  /** A change another instance announced, or may have made unseen (a reconnect). */
  noteChangeElsewhere(): void {
    this.count++;
  }

  /** Listening for other instances' changes started (true) or broke (false); either way, what was kept may predate a change. */
  setComplete(complete: boolean): void {
    this.count++;
    this.listening = complete;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** A statement outside a transaction that reads only (`/*planned-once*\/` is db/planned-once.ts's mark). */
const READ_ONLY = /^\s*(?:\/\*planned-once\*\/\s*)?select\b/i;

export function readsOnly(sql: string): boolean {
  return READ_ONLY.test(sql);
}

type Client = PGlite | PGliteThread;

/**
 * The client drizzle is given, counting changes into `changes`. The count moves when a change
 * has been made, before its caller hears of it: an answer cached after that cannot predate it.
 * A failed statement or a rolled back transaction counts too; a needless recount costs one miss.
 * (A class, not an object literal: drizzle takes a plain object for its configuration.)
 */
export class CountingClient {
  constructor(
    private readonly client: Client,
    private readonly changes: DatabaseChanges,
  ) {}

  query(sql: string, params?: unknown[], options?: never) {
    return this.counted(readsOnly(sql), () => this.client.query(sql, params, options));
  }

  exec(sql: string) {
    return this.counted(false, () => this.client.exec(sql));
  }

  transaction<T>(callback: (tx: ThreadTransaction) => Promise<T>): Promise<T> {
    // Both clients hand the callback a transaction with `query` and `exec`, all drizzle uses.
    return this.counted(false, () => (this.client as PGliteThread).transaction(callback));
  }

  close(): Promise<void> {
    return this.client.close();
  }

  private async counted<T>(readOnly: boolean, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } finally {
      if (!readOnly) this.changes.noteChange();
    }
  }
}

import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db } from '../../db/client';
import type { DatabaseChanges } from '../../db/database-changes';
import { PgListener } from '../../db/pg-listener';
import type { AuthChange, AuthChangeBus, AuthChangeListener, AuthChangeRelay } from './auth-changes';

/**
 * The NOTIFY channel of auth changes. The live fan-out (modules/live/live-relay.ts) uses the same
 * listener (db/pg-listener.ts) on its own channel and connection, so neither waits on the other.
 */
export const AUTH_CHANNEL = 'coldchain_auth';

/** A notification: the origin instance (which ignores its own) and the change. */
interface Envelope {
  o: string;
  c: AuthChange;
}

/**
 * Carries auth changes between server instances on one PostgreSQL database, so a right revoked
 * through one instance stops working on all of them at once, not after the caller cache's time to
 * live. A change made here is sent with `pg_notify`; the others receive it on a LISTEN connection.
 * While that connection is down, changes may be missed: on reconnecting, every cached caller of
 * this instance is dropped (`everyone`), and until then the time to live bounds the staleness.
 */
export class PgAuthRelay implements AuthChangeRelay {
  readonly instanceId = randomUUID();
  private deliver: AuthChangeListener | null = null;
  private readonly listener: PgListener;

  constructor(
    url: string,
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    /** The database's change count: answers reused under the old rights must not outlive them (db/pg-change-relay.ts). */
    private readonly changes?: DatabaseChanges,
  ) {
    this.listener = new PgListener({
      url,
      channel: AUTH_CHANNEL,
      name: 'auth relay',
      log,
      onPayload: (payload) => this.receive(payload),
      // What other instances changed meanwhile never arrived here.
      onReconnected: () => this.deliver?.({ everyone: true }),
    });
  }

  /** Connects and listens; a failure here fails the boot (the database was reachable a moment ago). */
  start(): Promise<void> {
    return this.listener.start();
  }

  send(change: AuthChange): void {
    if (this.listener.isClosed) return;
    const payload = JSON.stringify({ o: this.instanceId, c: change } satisfies Envelope);
    this.listener.notify(this.db, payload).catch((err: unknown) => {
      this.log.warn({ err }, 'auth relay: NOTIFY failed, other instances drop their cache on expiry');
    });
  }

  listen(deliver: AuthChangeListener): () => void {
    this.deliver = deliver;
    return () => {
      if (this.deliver === deliver) this.deliver = null;
    };
  }

  close(): Promise<void> {
    this.deliver = null;
    return this.listener.close();
  }

  private receive(payload: string) {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(payload) as Envelope;
    } catch {
      return;
    }
    if (envelope.o === this.instanceId || typeof envelope.c !== 'object' || envelope.c === null) return;
    this.changes?.noteChangeElsewhere();
    this.deliver?.(envelope.c);
  }
}

/**
 * The relay of a PostgreSQL-backed app, listening and plugged into `bus`; null on PGlite (one
 * process: the bus alone reaches every cache).
 */
export async function startAuthRelay(
  database: Database,
  bus: AuthChangeBus,
  log: FastifyBaseLogger,
): Promise<PgAuthRelay | null> {
  if (database.kind !== 'postgres' || !database.url) return null;
  const relay = new PgAuthRelay(database.url, database.db, log, database.changes);
  await relay.start();
  bus.useRelay(relay);
  return relay;
}

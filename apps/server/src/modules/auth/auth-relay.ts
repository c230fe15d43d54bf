import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { Database, Db } from '../../db/client';
import type { AuthChange, AuthChangeBus, AuthChangeListener, AuthChangeRelay } from './auth-changes';

/**
 * The NOTIFY channel of auth changes. The live fan-out (modules/live/live-relay.ts) uses the same
 * mechanism on its own channel and connection, so neither module waits on the other.
 */
export const AUTH_CHANNEL = 'coldchain_auth';
const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 30_000;

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
  private client: pg.Client | null = null;
  private deliver: AuthChangeListener | null = null;
  private closed = false;
  private retryMs = RETRY_MIN_MS;
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly url: string,
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Connects and listens; a failure here fails the boot (the database was reachable a moment ago). */
  async start(): Promise<void> {
    await this.connect();
  }

  send(change: AuthChange): void {
    if (this.closed) return;
    const payload = JSON.stringify({ o: this.instanceId, c: change } satisfies Envelope);
    this.db.execute(sql`select pg_notify(${AUTH_CHANNEL}, ${payload})`).catch((err: unknown) => {
      this.log.warn({ err }, 'auth relay: NOTIFY failed, other instances drop their cache on expiry');
    });
  }

  listen(deliver: AuthChangeListener): () => void {
    this.deliver = deliver;
    return () => {
      if (this.deliver === deliver) this.deliver = null;
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.deliver = null;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (n) => {
      if (n.channel === AUTH_CHANNEL && n.payload) this.receive(n.payload);
    });
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`listen ${AUTH_CHANNEL}`);
    } catch (err) {
      await client.end().catch(() => {});
      throw err;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.retryMs = RETRY_MIN_MS;
  }

  private lost(client: pg.Client, err?: Error) {
    if (this.closed || this.client !== client) return;
    this.client = null;
    this.log.warn({ err }, 'auth relay: LISTEN connection lost, reconnecting');
    void client.end().catch(() => {});
    this.scheduleReconnect();
  }

  private scheduleReconnect() {
    if (this.closed || this.retryTimer) return;
    this.retryTimer = setTimeout(async () => {
      this.retryTimer = null;
      try {
        await this.connect();
        // What other instances changed meanwhile never arrived here.
        this.deliver?.({ everyone: true });
        this.log.info('auth relay: listening again');
      } catch (err) {
        this.log.warn({ err }, 'auth relay: reconnect failed');
        this.retryMs = Math.min(RETRY_MAX_MS, this.retryMs * 2);
        this.scheduleReconnect();
      }
    }, this.retryMs);
    this.retryTimer.unref();
  }

  private receive(payload: string) {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(payload) as Envelope;
    } catch {
      return;
    }
    if (envelope.o === this.instanceId || typeof envelope.c !== 'object' || envelope.c === null) return;
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
  const relay = new PgAuthRelay(database.url, database.db, log);
  await relay.start();
  bus.useRelay(relay);
  return relay;
}

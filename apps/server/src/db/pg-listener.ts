import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { Db } from './client';

const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 30_000;

export interface PgListenerOptions {
  /** Connection string of the PostgreSQL database the instances share. */
  url: string;
  /** The NOTIFY channel; notifications stay inside one database. */
  channel: string;
  /** Names the listener in log lines ("auth relay", "live relay"). */
  name: string;
  log: FastifyBaseLogger;
  /** Each payload received on the channel, this instance's own included. */
  onPayload: (payload: string) => void;
  /** The connection broke: until `onReconnected`, nothing sent on the channel arrives. */
  onLost?: () => void;
  /** After a reconnect: whatever was sent while the connection was down never arrived. */
  onReconnected?: () => void;
}

/**
 * One LISTEN connection on one channel, the mechanism both cross-instance relays share (auth
 * changes, live pushes): a dedicated `pg.Client` outside the pool, reconnected with exponential
 * backoff (0.5 s to 30 s) once per broken connection, never left open after `close`.
 */
export class PgListener {
  private client: pg.Client | null = null;
  private closed = false;
  private retryMs = RETRY_MIN_MS;
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(private readonly options: PgListenerOptions) {}

  /** Connects and listens; a failure here fails the boot (the database was reachable a moment ago). */
  async start(): Promise<void> {
    await this.connect();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Sends `payload` on the channel through the app's pool (PostgreSQL refuses 8000 bytes or more). */
  notify(db: Db, payload: string): Promise<unknown> {
    return db.execute(sql`select pg_notify(${this.options.channel}, ${payload})`);
  }

  /**
   * Sends `payload` on the LISTEN connection itself, which no burst of the pool delays; through
   * the pool while that connection is down.
   */
  notifyOwnConnection(payload: string, db: Db): Promise<unknown> {
    if (!this.client) return this.notify(db, payload);
    return this.client.query('select pg_notify($1, $2)', [this.options.channel, payload]);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    const { url, channel, onPayload } = this.options;
    // Named, so an operator (and a test) can tell the relays' connections in pg_stat_activity.
    const client = new pg.Client({
      connectionString: url,
      application_name: `coldchain ${this.options.name}`,
    });
    client.on('notification', (n) => {
      if (n.channel === channel && n.payload) onPayload(n.payload);
    });
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`listen ${channel}`);
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

  /** The LISTEN connection broke: drop it and reconnect (once per broken connection). */
  private lost(client: pg.Client, err?: Error) {
    if (this.closed || this.client !== client) return;
    this.client = null;
    this.options.onLost?.();
    this.options.log.warn({ err }, `${this.options.name}: LISTEN connection lost, reconnecting`);
    void client.end().catch(() => {});
    this.scheduleReconnect();
  }

  private scheduleReconnect() {
    if (this.closed || this.retryTimer) return;
    this.retryTimer = setTimeout(async () => {
      this.retryTimer = null;
      try {
        await this.connect();
        this.options.onReconnected?.();
        this.options.log.info(`${this.options.name}: listening again`);
      } catch (err) {
        this.options.log.warn({ err }, `${this.options.name}: reconnect failed`);
        this.retryMs = Math.min(RETRY_MAX_MS, this.retryMs * 2);
        this.scheduleReconnect();
      }
    }, this.retryMs);
    this.retryTimer.unref();
  }
}

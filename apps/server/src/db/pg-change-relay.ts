import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db } from './client';
import type { DatabaseChanges } from './database-changes';
import { CHANGES_CHANNEL } from './pg-changes';
import { PgListener } from './pg-listener';

/**
 * Keeps a PostgreSQL-backed instance's change count (database-changes.ts) true to what every
 * instance writes, so that answers are reused on PostgreSQL as on the embedded database
 * (lib/answer-cache.ts):
 *
 * - **Announces** this instance's changes on CHANGES_CHANNEL: at most once per turn of the event
 *   loop that saw any, and one at a time (changes made while one is on its way go in the next),
 *   signed with `origin` so that this instance ignores its own. They are sent on the
 *   LISTEN connection, which nothing else queues on (the pool may be busy with a burst), else on
 *   the pool. A lost announcement costs the other instances at most the answers' time to live.
 * - **Hears** the others' announcements: each moves the count. It reaches this instance a few
 *   milliseconds after the change committed. The auth and live relays move the count too when they
 *   deliver another instance's message, so a console refreshing on a live push reads the change
 *   the push tells of (live-relay.ts).
 * - The count is **complete** only while the LISTEN connection is up: when it breaks, answers stop
 *   being reused, and they are reused again, under a new count, once it is back.
 */
export class PgChangeRelay {
  readonly origin = randomUUID();
  private readonly listener: PgListener;
  private stopAnnouncing: (() => void) | null = null;
  private announcing = false;
  private unannounced = false;

  constructor(
    url: string,
    private readonly db: Db,
    private readonly changes: DatabaseChanges,
    log: FastifyBaseLogger,
  ) {
    this.listener = new PgListener({
      url,
      channel: CHANGES_CHANNEL,
      name: 'change relay',
      log,
      onPayload: (payload) => {
        if (payload !== this.origin) changes.noteChangeElsewhere();
      },
      onLost: () => changes.setComplete(false),
      onReconnected: () => changes.setComplete(true),
    });
  }

  async start(): Promise<void> {
    await this.listener.start();
    this.stopAnnouncing = this.changes.onChange(() => this.announceSoon());
    this.changes.setComplete(true);
  }

  async close(): Promise<void> {
    this.stopAnnouncing?.();
    this.changes.setComplete(false);
    await this.listener.close();
  }

  /**
   * One announcement at a time: the LISTEN connection runs one query at a time, and changes made
   * while one is on its way are told by the next, sent when it is done.
   */
  private announceSoon() {
    this.unannounced = true;
    if (this.announcing) return;
    this.announcing = true;
    setImmediate(() => void this.announce());
  }

  private async announce() {
    while (this.unannounced) {
      this.unannounced = false;
      await this.listener.notifyOwnConnection(this.origin, this.db).catch(() => {});
    }
    this.announcing = false;
  }
}

/** The change relay of a PostgreSQL-backed app, listening; null on the embedded database, whose count is complete. */
export async function startChangeRelay(
  database: Database,
  log: FastifyBaseLogger,
): Promise<PgChangeRelay | null> {
  if (database.kind !== 'postgres' || !database.url || !database.changes) return null;
  const relay = new PgChangeRelay(database.url, database.db, database.changes, log);
  await relay.start();
  return relay;
}

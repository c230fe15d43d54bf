import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db } from '../../db/client';
import type { DatabaseChanges } from '../../db/database-changes';
import { PgListener } from '../../db/pg-listener';
import type { LiveHub, LiveMessage, LiveRelay, LiveTarget } from './live-hub';

/** The NOTIFY channel; notifications stay inside one database, so instances of one platform share it. */
export const LIVE_CHANNEL = 'coldchain_live';
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more. */
const NOTIFY_LIMIT_BYTES = 7_900;

/** What travels in a notification: the origin instance, the message, and its users or its device. */
interface Envelope {
  /** Origin instance: it pushed to its own sockets already and ignores its own notification. */
  o: string;
  m: LiveMessage;
  /** The recipients, when the list fits in the payload. */
  u?: number[];
  /** Else the device (company, device): each instance works out who may see it. */
  c?: number;
  d?: number;
}

export interface PgLiveRelayOptions {
  url: string;
  db: Db;
  hub: LiveHub;
  /** The users allowed to see a device (org/access), for messages sent by device. */
  recipientsOf: (companyId: number, deviceId: number) => Promise<number[]>;
  log: FastifyBaseLogger;
  /** The database's change count: another instance's message tells of a change it made (db/pg-change-relay.ts). */
  changes?: DatabaseChanges;
}

/**
 * Live fan-out between server instances on one PostgreSQL database (ARCHITECTURE.md): a published
 * message is pushed by its origin to its own sockets and sent with `pg_notify`; every other
 * instance receives it on a dedicated LISTEN connection (db/pg-listener.ts) and pushes it to its
 * own sockets. The LISTEN connection reconnects with backoff after an error; messages published while it is down
 * are not replayed (live pushes are a convenience, the alarm list and the outbox are the record).
 */
export class PgLiveRelay implements LiveRelay {
  readonly instanceId = randomUUID();
  private readonly listener: PgListener;

  constructor(private readonly options: PgLiveRelayOptions) {
    this.listener = new PgListener({
      url: options.url,
      channel: LIVE_CHANNEL,
      name: 'live relay',
      log: options.log,
      onPayload: (payload) => void this.receive(payload),
    });
  }

  /** Connects and listens; a failure here fails the boot (the database was reachable a moment ago). */
  start(): Promise<void> {
    return this.listener.start();
  }

  async send(target: LiveTarget, message: LiveMessage): Promise<void> {
    if (this.listener.isClosed) return;
    const payload = encode(this.instanceId, target, message);
    if (payload === null) {
      this.options.log.warn(
        { type: message.type, deviceId: target.deviceId },
        'live message too large for NOTIFY: delivered on this instance only',
      );
      return;
    }
    try {
      await this.listener.notify(this.options.db, payload);
    } catch (err) {
      this.options.log.warn({ err }, 'live relay: NOTIFY failed, other instances miss this message');
    }
  }

  close(): Promise<void> {
    return this.listener.close();
  }

  private async receive(payload: string) {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(payload) as Envelope;
    } catch {
      return;
    }
    // The origin pushed to its own sockets when it published.
    if (envelope.o === this.instanceId) return;
    // Its change may be announced on another connection after this: a console refreshing on
    // this push must not be answered from before it.
    this.options.changes?.noteChangeElsewhere();
    const { hub } = this.options;
    if (hub.connectedUsers() === 0) return;
    try {
      const userIds =
        envelope.u ??
        (envelope.c !== undefined && envelope.d !== undefined
          ? await this.options.recipientsOf(envelope.c, envelope.d)
          : []);
      hub.push(userIds, envelope.m);
    } catch (err) {
      this.options.log.warn({ err }, 'live relay: could not deliver a relayed message');
    }
  }
}

/** The notification text: with the user ids when they fit, else by device; null when nothing fits. */
export function encode(instanceId: string, target: LiveTarget, message: LiveMessage): string | null {
  const withUsers = JSON.stringify({ o: instanceId, m: message, u: target.userIds } satisfies Envelope);
  if (Buffer.byteLength(withUsers) <= NOTIFY_LIMIT_BYTES) return withUsers;
  if (target.companyId === undefined || target.deviceId === undefined) return null;
  const byDevice = JSON.stringify({
    o: instanceId,
    m: message,
    c: target.companyId,
    d: target.deviceId,
  } satisfies Envelope);
  return Buffer.byteLength(byDevice) <= NOTIFY_LIMIT_BYTES ? byDevice : null;
}

/** The relay of a PostgreSQL-backed app, listening; null on PGlite (one process, in-process fan-out). */
export async function startLiveRelay(
  database: Database,
  hub: LiveHub,
  recipientsOf: PgLiveRelayOptions['recipientsOf'],
  log: FastifyBaseLogger,
): Promise<PgLiveRelay | null> {
  if (database.kind !== 'postgres' || !database.url) return null;
  const relay = new PgLiveRelay({
    url: database.url,
    db: database.db,
    hub,
    recipientsOf,
    log,
    changes: database.changes,
  });
  await relay.start();
  hub.useRelay(relay);
  return relay;
}

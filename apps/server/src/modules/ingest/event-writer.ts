import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';
import { pgArray } from '../../db/pg-array';
import type { KnownDevice } from './device-directory';

/** An event as a device reports it: its instant (epoch ms) and its name. */
export interface DeviceEvent {
  ts: number;
  event: string;
}

interface PendingEvent {
  device: KnownDevice;
  event: DeviceEvent;
  resolve: (stored: boolean) => void;
  reject: (error: unknown) => void;
}

/** Events one statement stores at most. */
const EVENTS_PER_STATEMENT = 1000;

const keyOf = (deviceId: number, ts: number, event: string) => `${deviceId}:${ts}:${event}`;

/**
 * Stores device events (power off/on, low battery, call, ...) once per (device, instant, event).
 * A lone event is written at once; events that arrive while a statement is in flight go together
 * in the next one. A site's power cut brings hundreds of power-off messages within a second, and
 * on the embedded database each statement waits its turn behind every other.
 */
export class EventWriter {
  private pending: PendingEvent[] = [];
  private writing = false;

  constructor(
    private readonly db: Db,
    /** Told each newly stored event, after its statement committed. */
    private readonly onStored: (device: KnownDevice, event: DeviceEvent) => void,
  ) {}

  /** Resolves true once the event is stored, false for a repeat of one stored before. */
  record(device: KnownDevice, event: DeviceEvent): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.pending.push({ device, event, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain() {
    this.writing = true;
    try {
      while (this.pending.length > 0) {
        const part = this.pending.splice(0, EVENTS_PER_STATEMENT);
        try {
          this.settle(part, await this.insert(part));
        } catch {
          // One event the database refuses (its device deleted meanwhile) must not fail the
          // others: each is tried alone, and only the one at fault is refused.
          for (const one of part) {
            await this.insert([one]).then(
              (stored) => this.settle([one], stored),
              (error: unknown) => one.reject(error),
            );
          }
        }
      }
    } finally {
      this.writing = false;
    }
  }

  /** Inserts the events; returns the keys of those newly stored. */
  private async insert(part: PendingEvent[]): Promise<Set<string>> {
    const rows = await queryRows<{ device_id: number | string; ms: number; event: string }>(
      this.db,
      sql`insert into device_events (company_id, device_id, ts, event)
          select company_id, device_id, to_timestamp(ms / 1000.0), event
          from unnest(${pgArray(part.map((p) => p.device.companyId))}::bigint[],
                      ${pgArray(part.map((p) => p.device.id))}::bigint[],
                      ${pgArray(part.map((p) => p.event.ts))}::float8[],
                      ${pgArray(part.map((p) => p.event.event))}::text[]) as e(company_id, device_id, ms, event)
          on conflict do nothing
          returning device_id, round(extract(epoch from ts) * 1000)::float8 as ms, event`,
    );
    return new Set(rows.map((r) => keyOf(Number(r.device_id), Number(r.ms), r.event)));
  }

  /** Answers each event; an event sent twice in one statement is stored once, for the first. */
  private settle(part: PendingEvent[], stored: Set<string>) {
    for (const p of part) {
      const key = keyOf(p.device.id, p.event.ts, p.event.event);
      const first = stored.delete(key);
      p.resolve(first);
      if (first) this.onStored(p.device, p.event);
    }
  }
}

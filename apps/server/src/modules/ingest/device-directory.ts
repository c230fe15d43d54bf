import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';
import { plannedOnce } from '../../db/planned-once';
import { hashToken } from '../../lib/tokens';
import { onDeviceChanged } from '../devices/devices.service';

export interface KnownDevice {
  id: number;
  companyId: number;
  serial: string;
  keyHash: string;
  uploadIntervalS: number;
  /** channel number -> sensor id */
  sensorIds: Map<number, number>;
}

export interface DirectoryTiming {
  /**
   * Another instance may have rotated a key: cached entries live this long at most since they
   * were read. Each entry's life is drawn between 75% and 100% of it, so a fleet that connected
   * together does not expire together.
   */
  ttlMs: number;
  /**
   * How often entries about to expire are read again, together, before they do: a device that
   * sends finds its entry fresh instead of paying a statement of its own on its message.
   */
  refreshEveryMs: number;
  /** Entries not used for this long are left to expire (a device gone quiet costs nothing). */
  idleMs: number;
}

export const DEFAULT_DIRECTORY_TIMING: DirectoryTiming = {
  ttlMs: 30_000,
  refreshEveryMs: 5_000,
  idleMs: 300_000,
};

/** Far above the devices one server ingests for, far below what strains its memory. */
const MAX_CACHED_SERIALS = 100_000;
const MAX_SERIAL_LENGTH = 40;
/** Serials looked up in one statement at most. */
const MAX_SERIALS_PER_LOAD = 1_000;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function isPossibleSerial(serial: string): boolean {
  // Well-formed: a lone surrogate would make the lookup's JSON, and the lookup of every serial with it, fail.
  return (
    serial.length > 0 &&
    serial.length <= MAX_SERIAL_LENGTH &&
    !serial.includes('\u0000') &&
    !LONE_SURROGATE.test(serial)
  );
}

interface Caller {
  resolve: (device: KnownDevice | null) => void;
  reject: (error: unknown) => void;
}

interface Row {
  id: number | string;
  company_id: number | string;
  serial: string;
  key_hash: string;
  upload_interval_s: number;
  state: number;
  sensors: [number, number | string][] | string;
}

interface Entry {
  device: KnownDevice | null;
  until: number;
  usedAt: number;
}

/**
 * The devices ingest needs on every message, cached by serial so the hot path does not query
 * them each time. Changes made through the devices service invalidate the entry at once.
 * Serials not cached that are asked for at about the same time (a fleet reconnecting after a
 * restart) are read together, in one statement, with their sensors. Entries in use are read
 * again together shortly before they expire (refreshDue): before that, with 10 000 devices each
 * sending every 10 s, every entry expired between two messages of its device and was read again
 * alone on the message, 385 statements a second and about a third of the embedded database's time.
 */
export class DeviceDirectory {
  private readonly cache = new Map<string, Entry>();
  /** Serials waiting for the next load, and the callers waiting for each. */
  private waiting = new Map<string, Caller[]>();
  private loadScheduled = false;
  /** The load in flight, if any: the next one starts when it ends. */
  private loading: Promise<void> | null = null;
  /** Bumped by every change, so a load that raced with one is not cached. */
  private generation = 0;
  private readonly unsubscribe: () => void;
  private readonly refreshTimer: NodeJS.Timeout;
  private refreshing = false;

  constructor(
    private readonly db: Db,
    private readonly timing: DirectoryTiming = DEFAULT_DIRECTORY_TIMING,
  ) {
    this.unsubscribe = onDeviceChanged((serial) => {
      this.generation++;
      this.cache.delete(serial);
    });
    this.refreshTimer = setInterval(() => void this.refreshDue(), timing.refreshEveryMs);
    this.refreshTimer.unref();
  }

  async find(serial: string): Promise<KnownDevice | null> {
    // No device has such a serial (addDevice takes 1-40 characters); PostgreSQL text cannot even
    // hold a NUL, so the query would fail (found by the device fuzz, issue 13). Nothing is cached
    // for it either, so made-up serials cannot fill the cache.
    if (!isPossibleSerial(serial)) return null;
    const hit = this.cache.get(serial);
    const now = Date.now();
    if (hit && now < hit.until) {
      hit.usedAt = now;
      return hit.device;
    }
    return new Promise((resolve, reject) => {
      const callers = this.waiting.get(serial);
      if (callers) callers.push({ resolve, reject });
      else this.waiting.set(serial, [{ resolve, reject }]);
      this.scheduleLoad();
    });
  }

  /**
   * The serials asked for in this turn of the event loop go in one statement, and while a load is
   * in flight every serial asked for meanwhile waits for it to end and goes in the next one. After
   * a restart the fleet reconnects over seconds, a few devices per turn: one statement per turn
   * was 1 100 small statements in 2 s queued on the embedded database ahead of the readings.
   */
  private scheduleLoad() {
    if (this.loadScheduled) return;
    this.loadScheduled = true;
    const start = () => {
      this.loadScheduled = false;
      const batch = this.waiting;
      this.waiting = new Map();
      this.loading = this.load(batch)
        .catch(() => undefined)
        .finally(() => {
          this.loading = null;
        });
    };
    if (this.loading) void this.loading.then(() => setImmediate(start));
    else setImmediate(start);
  }

  /** The device when `key` is its current key, else null (unknown, disposed or wrong key). */
  async authenticate(serial: string, key: string): Promise<KnownDevice | null> {
    const device = await this.find(serial);
    return device && device.keyHash === hashToken(key) ? device : null;
  }

  close() {
    clearInterval(this.refreshTimer);
    this.unsubscribe();
    this.cache.clear();
  }

  /**
   * Reads again, in statements of up to MAX_SERIALS_PER_LOAD serials, the entries used within
   * `idleMs` that would expire before the next two refreshes; each gets a whole new life from its
   * read. A failed read leaves the entries to expire as before. Runs every `refreshEveryMs`.
   */
  async refreshDue(): Promise<void> {
    if (this.refreshing) return;
    this.refreshing = true;
    try {
      const now = Date.now();
      const horizon = now + 2 * this.timing.refreshEveryMs;
      const due: string[] = [];
      for (const [serial, entry] of this.cache)
        if (entry.until < horizon && now - entry.usedAt < this.timing.idleMs) due.push(serial);
      for (let i = 0; i < due.length; i += MAX_SERIALS_PER_LOAD) {
        const chunk = due.slice(i, i + MAX_SERIALS_PER_LOAD);
        const generation = this.generation;
        const found = await this.read(chunk);
        if (generation !== this.generation) continue;
        const readAt = Date.now();
        for (const serial of chunk) {
          const entry = this.cache.get(serial);
          if (!entry) continue;
          entry.device = unchangedOr(entry.device, found.get(serial) ?? null);
          entry.until = readAt + this.lifetime();
        }
      }
    } catch {
      // The database is unreachable or shutting down: entries expire and are read on their next use.
    } finally {
      this.refreshing = false;
    }
  }

  private lifetime() {
    return this.timing.ttlMs * (0.75 + Math.random() / 4);
  }

  private async load(batch: Map<string, Caller[]>) {
    const serials = [...batch.keys()];
    for (let i = 0; i < serials.length; i += MAX_SERIALS_PER_LOAD) {
      const chunk = serials.slice(i, i + MAX_SERIALS_PER_LOAD);
      const generation = this.generation;
      let found: Map<string, KnownDevice>;
      try {
        found = await this.read(chunk);
      } catch (error) {
        for (const serial of chunk) for (const caller of batch.get(serial)!) caller.reject(error);
        continue;
      }
      const now = Date.now();
      for (const serial of chunk) {
        const device = found.get(serial) ?? null;
        // Unknown serials are cached too (a device retrying with a wrong serial costs no query), so
        // the cache is bounded: the oldest entries go first (a Map keeps insertion order).
        if (generation === this.generation) {
          if (this.cache.size >= MAX_CACHED_SERIALS) this.cache.delete(this.cache.keys().next().value!);
          this.cache.set(serial, { device, until: now + this.lifetime(), usedAt: now });
        }
        for (const caller of batch.get(serial)!) caller.resolve(device);
      }
    }
  }

  /** The bound devices (not disposed) among `serials`, with their sensors, in one statement. */
  private async read(serials: string[]): Promise<Map<string, KnownDevice>> {
    // As JSON: a serial a device made up may hold any character, which an array literal would not take.
    const rows = await queryRows<Row>(
      this.db,
      plannedOnce(sql`select d.id, d.company_id, d.serial, d.key_hash, d.upload_interval_s, d.state,
                 coalesce((select json_agg(json_build_array(s.channel, s.id)) from sensors s where s.device_id = d.id),
                          '[]'::json) as sensors
          from devices d
          where d.serial in (select json_array_elements_text(${JSON.stringify(serials)}::json))`),
    );
    const found = new Map<string, KnownDevice>();
    for (const row of rows) {
      if (row.state === 6) continue;
      const channels = typeof row.sensors === 'string' ? JSON.parse(row.sensors) : row.sensors;
      found.set(row.serial, {
        id: Number(row.id),
        companyId: Number(row.company_id),
        serial: row.serial,
        keyHash: row.key_hash,
        uploadIntervalS: row.upload_interval_s,
        sensorIds: new Map((channels as [number, number | string][]).map(([ch, id]) => [ch, Number(id)])),
      });
    }
    return found;
  }
}

/**
 * The cached device when the fresh read says the same, else the fresh one. A refresh re-reads
 * every device in use every 22-30 s; keeping the entry's own object when nothing changed keeps
 * those objects from dying old (a fleet's whole directory, every half minute, in the old
 * generation: docs/performance.md, "Objects made old").
 */
function unchangedOr(cached: KnownDevice | null, fresh: KnownDevice | null): KnownDevice | null {
  if (!cached || !fresh) return fresh;
  const same =
    cached.id === fresh.id &&
    cached.companyId === fresh.companyId &&
    cached.keyHash === fresh.keyHash &&
    cached.uploadIntervalS === fresh.uploadIntervalS &&
    cached.sensorIds.size === fresh.sensorIds.size;
  if (!same) return fresh;
  for (const [channel, id] of fresh.sensorIds) if (cached.sensorIds.get(channel) !== id) return fresh;
  return cached;
}

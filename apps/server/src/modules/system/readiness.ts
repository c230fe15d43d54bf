import { readFileSync } from 'node:fs';
import path from 'node:path';

/** What `/readyz` says about each part; a part that is not `ok` (or `off`) makes the instance not ready. */
export interface ReadinessChecks {
  database: 'ok' | 'unavailable';
  /** `pending` while this build knows migrations the database has not applied. */
  migrations: 'ok' | 'pending' | 'unknown';
  /** `off`: no broker configured (tests, an HTTP-only instance); `starting` until it is attached. */
  mqtt: 'ok' | 'down' | 'starting' | 'off';
}

export interface ReadinessReport {
  ready: boolean;
  checks: ReadinessChecks;
  /** The parts that are not ready, by name (`database`, `migrations`, `mqtt`). */
  notReady: (keyof ReadinessChecks)[];
}

/** How many migrations this build ships: the entries of drizzle's journal. */
export function shippedMigrationCount(migrationsFolder: string): number {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: unknown[];
  };
  return journal.entries.length;
}

/**
 * Readiness for `/readyz`: the database answers, it holds every migration this build ships, and
 * the MQTT broker (embedded or external) is up. Like liveness.ts, the answer is reused for
 * `reuseMs` and callers during a probe share it, so a load balancer polling hard costs the
 * database one statement a second. The probe returns how many migrations the database applied.
 */
export class Readiness {
  private broker: (() => boolean) | null = null;
  private last: { report: ReadinessReport; at: number } | null = null;
  private probing: Promise<ReadinessReport> | null = null;

  constructor(
    private readonly probe: () => Promise<number>,
    private readonly shippedMigrations: number,
    /** Whether this instance runs or connects to a broker (MQTT_PORT or MQTT_URL). */
    private readonly brokerExpected: boolean,
    private readonly reuseMs = 1_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** run-server.ts attaches the broker it started; until then a configured broker is `starting`. */
  attachBroker(isUp: () => boolean) {
    this.broker = isUp;
    this.last = null;
  }

  check(): Promise<ReadinessReport> {
    if (this.last && this.now() - this.last.at < this.reuseMs) return Promise.resolve(this.last.report);
    this.probing ??= this.probe().then(
      (applied) => this.settle(applied),
      () => this.settle(null),
    );
    return this.probing;
  }

  private settle(applied: number | null): ReadinessReport {
    const checks: ReadinessChecks = {
      database: applied === null ? 'unavailable' : 'ok',
      migrations: applied === null ? 'unknown' : applied >= this.shippedMigrations ? 'ok' : 'pending',
      mqtt: this.brokerState(),
    };
    const notReady = (Object.keys(checks) as (keyof ReadinessChecks)[]).filter(
      (name) => checks[name] !== 'ok' && checks[name] !== 'off',
    );
    const report = { ready: notReady.length === 0, checks, notReady };
    this.last = { report, at: this.now() };
    this.probing = null;
    return report;
  }

  private brokerState(): ReadinessChecks['mqtt'] {
    if (!this.brokerExpected) return 'off';
    if (!this.broker) return 'starting';
    try {
      return this.broker() ? 'ok' : 'down';
    } catch {
      return 'down';
    }
  }
}

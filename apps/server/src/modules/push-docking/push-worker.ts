import { PushUrlState } from '@coldchain/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type Db, queryRows } from '../../db/client';
import { pgArray } from '../../db/pg-array';
import { translate } from '../../i18n/messages';
import type { SecretBox } from '../../lib/secret-box';
import { createNotice } from '../notices/notices.service';
import { pushDeliveries, pushUrls } from './push-docking.table';
import type { PushOptions } from './push-options';
import { routePushOutbox } from './push-router';
import type { PushAttempt, PushSender } from './push-sender';
import { clearPushUrl } from './push-urls.service';

/**
 * The longest rest between rounds while ingest is saturated, so a backlog still moves after one
 * long round. Long enough that a round of a few hundred milliseconds (routing a statement's
 * readings to a hundred addresses) still gets its full rest: a shorter cap let rounds take a
 * sixth of the database instead of a tenth.
 */
const MAX_PAUSE_MS = 10_000;
/**
 * Ingest is saturated when a transaction of it was in flight for this share of the recent past
 * (IngestService.busyShare): its batches go back to back and any other work delays devices.
 */
const INGEST_SATURATED = 0.5;
/** How often a rest looks whether ingest is still saturated. */
const REST_CHECK_MS = 100;
/** Deliveries sent at once, each to a different address. */
const CLAIM_LIMIT = 32;

interface Claimed {
  id: number | string;
  url_id: number | string;
  event: string;
  body: string;
  attempts: number;
  url: string;
  secret_sealed: string;
  adapter: string;
  key_id: string | null;
}

/**
 * Sends push deliveries (docs/decisions.md, "Push docking"). Each round routes the outbox into
 * deliveries, then claims the first unsent delivery of each enabled address under a lease, in
 * one statement with `FOR UPDATE SKIP LOCKED`, so every delivery is sent by one instance at a
 * time, and an address's next delivery waits until the one ahead of it succeeded. A lapsed lease
 * (the instance died mid-send) lets another instance send it again, with the same deliveryId.
 */
export class PushWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  /** Ends the current rest early (stop). */
  private endRest: (() => void) | null = null;
  /** How busy ingest is, from 0 to 1 (yieldTo); the worker rests while it is saturated. */
  private ingestBusy: () => number = () => 0;

  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
    readonly sender: PushSender,
    private readonly options: PushOptions,
    private readonly log: FastifyBaseLogger,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Where the worker reads how busy ingest is (app.ts: IngestService.busyShare). */
  yieldTo(ingestBusy: () => number) {
    this.ingestBusy = ingestBusy;
  }

  start() {
    if (this.timer) return;
    this.stopped = false;
    this.timer = setInterval(() => this.wake(), this.options.pollMs);
    this.timer.unref();
    this.wake();
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.endRest?.();
    while (this.running) await this.running;
  }

  wake() {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.runDue()
      .catch((err: unknown) => this.log.error({ err }, 'push delivery failed'))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Routes the outbox and sends every delivery due now (tests call it directly). */
  async runDue(): Promise<void> {
    // Routing and sending take turns, a bounded batch each, yielding between them: under a flood
    // of readings the worker keeps sending, and ingest on this thread keeps its turn.
    for (;;) {
      const started = performance.now();
      const routed = await routePushOutbox(this.db);
      const claimed = await this.claim();
      const attempts = await Promise.all(claimed.map((delivery) => this.attempt(delivery)));
      await this.recordSuccesses(
        claimed.filter((_, i) => attempts[i]!.ok),
        attempts.filter((a) => a.ok),
      );
      for (const [i, delivery] of claimed.entries())
        if (!attempts[i]!.ok) await this.recordFailure(delivery, attempts[i]!);
      if ((routed === 0 && claimed.length === 0) || this.stopped) return;
      // While ingest is saturated (a flood of readings), a backlog is worked off in a bounded
      // share of the time, so ingest keeps its turn on this thread and the database. A fleet
      // trickling in leaves the database mostly idle: then the worker goes at full speed, and
      // should its rounds delay ingest enough to saturate it, it rests again.
      const spent = performance.now() - started;
      if (this.ingestBusy() >= INGEST_SATURATED)
        await this.rest(Math.min(MAX_PAUSE_MS, this.options.pauseFactor * spent));
      else await new Promise((resolve) => setImmediate(resolve));
      // stop() ends a rest early; it must not start another round.
      if (this.stopped) return;
    }
  }

  /**
   * Rests up to `ms` while ingest stays saturated: when a flood of readings ends, the backlog it
   * left starts moving within REST_CHECK_MS instead of after the whole rest.
   */
  private rest(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        clearInterval(check);
        this.endRest = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      const check = setInterval(() => {
        if (this.ingestBusy() < INGEST_SATURATED) done();
      }, REST_CHECK_MS);
      this.endRest = done;
    });
  }

  /** Delay before the attempt after `attempts`: 10 s, 20 s, 40 s, ... at most an hour. */
  backoffFor(attempts: number): number {
    return Math.min(this.options.retryMaxMs, this.options.retryBaseMs * 2 ** Math.max(0, attempts - 1));
  }

  private async claim(): Promise<Claimed[]> {
    const now = this.clock();
    const leaseUntil = new Date(now.getTime() + this.options.leaseMs);
    // Each enabled address's first unsent delivery, found through the pending part of its own
    // index (push_deliveries_url_pending_idx), so a claim costs one probe per address however many
    // deliveries wait. A first delivery locked by another instance is skipped, not replaced by
    // the one behind it: an address's deliveries go strictly in order.
    return queryRows<Claimed>(
      this.db,
      sql`update push_deliveries d set status = 'sending', attempts = d.attempts + 1, lease_until = ${leaseUntil.toISOString()}
          from (
            select p.id, u.url, u.secret_sealed, u.adapter, u.key_id from push_urls u
            cross join lateral (
              select e.id from push_deliveries e
              where e.url_id = u.id and e.status in ('queued', 'sending', 'retrying')
              order by e.id limit 1
            ) first
            join push_deliveries p on p.id = first.id
            where u.state = ${PushUrlState.Enabled} and p.next_at <= ${now.toISOString()}
              and (p.status <> 'sending' or p.lease_until < ${now.toISOString()})
            order by p.next_at, p.id limit ${CLAIM_LIMIT}
            for update of p skip locked
          ) c
          where d.id = c.id
          returning d.id, d.url_id, d.event, d.body, d.attempts, c.url, c.secret_sealed, c.adapter, c.key_id`,
    );
  }

  private async attempt(delivery: Claimed): Promise<PushAttempt> {
    try {
      return await this.sender.send(
        delivery.url,
        this.box.open(delivery.secret_sealed),
        {
          id: Number(delivery.id),
          event: delivery.event,
          body: delivery.body,
        },
        { adapter: delivery.adapter, keyId: delivery.key_id },
      );
    } catch (error) {
      return { ok: false, httpStatus: null, durationMs: null, error: String(error), refused: false };
    }
  }

  /** The round's successes in two statements, whatever their number (this database is shared with ingest). */
  private async recordSuccesses(delivered: Claimed[], attempts: PushAttempt[]) {
    if (delivered.length === 0) return;
    const now = this.clock().toISOString();
    await this.db.transaction(async (tx) => {
      await tx.execute(sql`update push_deliveries d set status = 'delivered', delivered_at = ${now}::timestamptz,
          http_status = r.http_status, duration_ms = r.duration_ms, error = '', lease_until = null
        from unnest(${pgArray(delivered.map((d) => Number(d.id)))}::bigint[],
                    ${pgArray(attempts.map((a) => a.httpStatus ?? 0))}::smallint[],
                    ${pgArray(attempts.map((a) => a.durationMs ?? 0))}::int[]) as r(id, http_status, duration_ms)
        where d.id = r.id and d.status = 'sending'`);
      await tx.execute(sql`update push_urls set failing_since = null, last_delivery_at = ${now}::timestamptz
        where id = any(${pgArray([...new Set(delivered.map((d) => Number(d.url_id)))])}::bigint[])`);
    });
  }

  private async recordFailure(delivery: Claimed, attempt: PushAttempt) {
    const id = Number(delivery.id);
    const now = this.clock();
    const held = and(eq(pushDeliveries.id, id), eq(pushDeliveries.status, 'sending'));
    const result = {
      httpStatus: attempt.httpStatus,
      durationMs: attempt.durationMs,
      error: attempt.error,
      leaseUntil: null,
    };
    const nextAt = new Date(now.getTime() + this.backoffFor(Number(delivery.attempts)));
    await this.db.transaction(async (tx) => {
      await tx
        .update(pushDeliveries)
        .set({ ...result, status: 'retrying', nextAt })
        .where(held);
      const [url] = await tx
        .update(pushUrls)
        .set({ failingSince: sql`coalesce(${pushUrls.failingSince}, ${now.toISOString()}::timestamptz)` })
        .where(and(eq(pushUrls.id, Number(delivery.url_id)), eq(pushUrls.state, PushUrlState.Enabled)))
        .returning();
      if (!url?.failingSince || now.getTime() - url.failingSince.getTime() < this.options.stopAfterMs) return;
      // A day of failures: the receiver is gone. Stop it, clear its queue, and tell its owner.
      await clearPushUrl(tx, url.id);
      if (url.createdBy)
        await createNotice(tx, {
          companyId: url.companyId,
          userId: url.createdBy,
          kind: 'pushStopped',
          title: {
            en: translate('PUSH_STOPPED_NOTICE_TITLE', 'en'),
            cn: translate('PUSH_STOPPED_NOTICE_TITLE', 'cn'),
          },
          content: {
            en: translate('PUSH_STOPPED_NOTICE', 'en', { name: url.name, url: url.url }),
            cn: translate('PUSH_STOPPED_NOTICE', 'cn', { name: url.name, url: url.url }),
          },
        });
      this.log.warn({ pushUrl: url.id }, 'push address stopped after failing for a day');
    });
  }
}

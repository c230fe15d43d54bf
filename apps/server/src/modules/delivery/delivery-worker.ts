import { randomUUID } from 'node:crypto';
import { ALARM_CHANNEL_SERVICES } from '@coldchain/contract';
import { and, countDistinct, eq, gt, gte, inArray, ne, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type Db, queryRows } from '../../db/client';
import { alarmNotifications, alarmRecords } from '../alarms/alarms.table';
import { companies } from '../companies/companies.table';
import { markWechatNotFollowing } from '../profile/wechat-follow';
import { users } from '../users/users.table';
import { type ChannelAdapter, ProviderError, type Recipient } from './channels/channel';
import { creditCost, noticeNoCredit, refundCredit, reserveCredit } from './credits.service';
import { notificationDeliveries } from './delivery.table';
import { DeliveryStatus } from './delivery-status';
import { alarmEmailText, alarmShortText, alarmSubject, plainTextHtml } from './templates';

/** What another module adds to an alarm e-mail: a line of text, and the same as HTML. */
export interface AlarmEmailExtra {
  text: string;
  html: string;
}

export interface DeliveryOptions {
  /** How often due rows are looked for when nobody wakes the worker. */
  pollMs: number;
  /** Attempts before a row is given up ("failed"). */
  maxAttempts: number;
  /** First retry delay; it doubles with every attempt up to `retryMaxMs`. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** A claim older than this belongs to a dead worker and is taken again. Keep it > the HTTP timeout. */
  leaseMs: number;
  httpTimeoutMs: number;
  /** Alarm records per phone number per UTC day (spec section 9: 40). */
  dailyCapPerPhone: number;
  batchSize: number;
}

/** Channels that reach a phone number and so count against its daily cap. */
const PHONE_CHANNELS = ['sms', 'call', 'whatsapp'];

interface ClaimedRow {
  id: number;
  companyId: number;
  alarmId: number;
  userId: number;
  channel: string;
  sequence: number;
  level: number;
  attempts: number;
}

interface Outcome {
  status: DeliveryStatus;
  error?: string | null;
  providerId?: string | null;
  nextAttemptAt?: Date;
}

class ClaimLost extends Error {}

/** Where the worker reads the time: the system clock, or one a test moves by hand. */
export type Clock = () => Date;
const systemClock: Clock = () => new Date();

const FINAL_UNSENT: DeliveryStatus[] = [
  DeliveryStatus.Failed,
  DeliveryStatus.NotConfigured,
  DeliveryStatus.NoRecipient,
  DeliveryStatus.NoCredit,
  DeliveryStatus.DailyCap,
  DeliveryStatus.ServiceOff,
];

/**
 * Whether the company has the channel's remote alarm service now (issue 17 item 5): switched on
 * by the supplier and not past its end (`service_expiry`, as modules/auth/session-caller.ts reads it).
 */
function channelServiceOn(
  channel: string,
  company: { services: string[]; serviceExpiry: Record<string, string> } | null,
  now: Date,
): boolean {
  const service = (ALARM_CHANNEL_SERVICES as Record<string, string>)[channel];
  if (!service) return true;
  if (!company?.services.includes(service)) return false;
  const end = company.serviceExpiry[service];
  return end === undefined || Date.parse(end) > now.getTime();
}

/**
 * Delivers the alarm engine's outbox (`alarm_notifications`) as a persistent job queue on the
 * database, off the hot path (ARCHITECTURE.md "The hot path").
 *
 * - Claim: due rows (pending, retrying whose `next_attempt_at` passed, or sending whose lease
 *   expired) are taken with `FOR UPDATE SKIP LOCKED`, marked `sending`, their attempt counted and
 *   a lease and claim token written, in one short transaction. Provider calls run outside any
 *   transaction, each with a timeout.
 * - Finish: `sent`, `retrying` (exponential backoff), `failed` after `maxAttempts` or a permanent
 *   provider error, or a visible reason it was not sent. Only the holder of the current claim
 *   token can finish a row, so a row marked sent is never sent or changed again.
 * - Crash: a row whose worker died stays `sending` until its lease ends, then it is claimed again.
 *   A worker checks it still holds its lease right before calling the provider, so a stalled one
 *   sends nothing once another has taken over. Two narrow windows remain at-least-once at the
 *   provider: the process dies after the provider accepted the message but before `sent` is
 *   written, or the lease ends during the provider call itself (the lease is kept at least three
 *   HTTP timeouts long, config.ts). The stable
 *   idempotency key (`alarm-notification-{id}`: Twilio's `I-Twilio-Idempotency-Token`, the
 *   e-mail Message-ID, WeChat's client_msg_id) lets providers that honour it drop the repeat.
 *
 * It polls every `pollMs` and is woken by the app right after the engine commits new rows.
 */
export class DeliveryWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private started = false;
  /** Told each recorded outcome (modules/system/metrics.ts). */
  observeOutcome: (channel: string, outcome: string) => void = () => {};
  /**
   * More for an alarm's e-mail, told by another module (modules/camera: the alarm's camera
   * picture, as a link in the text and an image in the HTML). It must answer quickly; a failure
   * leaves it out, never the mail.
   */
  alarmEmailExtra: (alarmId: number, language: 'en' | 'cn') => Promise<AlarmEmailExtra | null> = async () =>
    null;

  constructor(
    private readonly db: Db,
    private readonly adapters: Map<string, ChannelAdapter>,
    private readonly options: DeliveryOptions,
    private readonly log: FastifyBaseLogger,
    // Every due, lease and backoff time is read here, so a test can check the schedule exactly
    // instead of racing the wall clock.
    private readonly clock: Clock = systemClock,
  ) {}

  start() {
    if (this.started) return;
    this.started = true;
    this.timer = setInterval(() => this.wake(), this.options.pollMs);
    this.timer.unref();
    this.wake();
  }

  /** Stops polling and waits for the messages in flight. */
  async stop() {
    this.started = false;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.idle();
  }

  /** Looks for due rows now (no-op unless started). Never throws, never blocks the caller. */
  wake() {
    if (this.started) this.run();
  }

  /** Delivers everything due now, started or not (tests, tools). */
  async deliverDue() {
    this.run();
    await this.idle();
  }

  async idle() {
    while (this.running) await this.running;
  }

  private run() {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((err: unknown) => this.log.error({ err }, 'alarm delivery failed'))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.run();
        }
      });
  }

  private async drain() {
    for (;;) {
      const { rows, token } = await this.claim();
      if (rows.length === 0) return;
      await Promise.all(rows.map((row) => this.process(row, token)));
    }
  }

  /** Claims up to `batchSize` due rows for this worker (public for the crash test). */
  async claim(now = this.clock()): Promise<{ rows: ClaimedRow[]; token: string }> {
    const token = randomUUID();
    const at = now.toISOString();
    const leaseUntil = new Date(now.getTime() + this.options.leaseMs).toISOString();
    const rows = await this.db.transaction(async (tx) => {
      const claimed = await queryRows<Record<string, unknown>>(
        tx,
        sql`with due as (
              select n.id from alarm_notifications n
              left join notification_deliveries d on d.notification_id = n.id
              where (n.status in (${DeliveryStatus.Pending}, ${DeliveryStatus.Retrying})
                     and (d.next_attempt_at is null or d.next_attempt_at <= ${at}::timestamptz))
                 or (n.status = ${DeliveryStatus.Sending}
                     and (d.lease_until is null or d.lease_until <= ${at}::timestamptz))
              order by n.id
              limit ${this.options.batchSize}
              for update of n skip locked
            )
            update alarm_notifications n
               set status = ${DeliveryStatus.Sending}, attempts = n.attempts + 1
              from due where n.id = due.id
            returning n.id, n.company_id, n.alarm_id, n.user_id, n.channel, n.sequence, n.level, n.attempts`,
      );
      const list = claimed.map((r) => ({
        id: Number(r.id),
        companyId: Number(r.company_id),
        alarmId: Number(r.alarm_id),
        userId: Number(r.user_id),
        channel: String(r.channel),
        sequence: Number(r.sequence),
        level: Number(r.level),
        attempts: Number(r.attempts),
      }));
      if (list.length > 0) {
        await tx
          .insert(notificationDeliveries)
          .values(
            list.map((r) => ({
              notificationId: r.id,
              leaseUntil: new Date(leaseUntil),
              claimToken: token,
              updatedAt: now,
            })),
          )
          .onConflictDoUpdate({
            target: notificationDeliveries.notificationId,
            set: {
              leaseUntil: new Date(leaseUntil),
              claimToken: token,
              nextAttemptAt: null,
              updatedAt: now,
            },
          });
      }
      return list.sort((a, b) => a.id - b.id);
    });
    return { rows, token };
  }

  /** Delivers one claimed row and records the outcome (public for the crash test). */
  async process(row: ClaimedRow, token: string) {
    let outcome: Outcome;
    try {
      outcome = await this.attempt(row, token);
    } catch (error) {
      if (error instanceof ClaimLost) {
        this.log.warn(
          { notificationId: row.id },
          'alarm delivery: claim lost (lease expired) before sending',
        );
        return;
      }
      outcome = this.failure(row, error);
      // WeChat says the user left the official account: say so in their personal centre and with
      // a notice, and send them no more WeChat messages until they follow it again and refresh.
      if (error instanceof ProviderError && error.notFollowing && row.channel === 'wechat')
        await markWechatNotFollowing(this.db, row.userId, row.companyId).catch((err: unknown) =>
          this.log.error({ err, userId: row.userId }, 'alarm delivery: follow state not cleared'),
        );
    }
    const finished = await this.finish(row, token, outcome);
    if (!finished) {
      this.log.warn(
        { notificationId: row.id },
        'alarm delivery: claim lost (lease expired), outcome dropped',
      );
      return;
    }
    this.observeOutcome(row.channel, outcome.status);
    if (FINAL_UNSENT.includes(outcome.status)) await refundCredit(this.db, row.companyId, row.id);
  }

  private async attempt(row: ClaimedRow, token: string): Promise<Outcome> {
    const adapter = this.adapters.get(row.channel);
    if (!adapter?.configured) return { status: DeliveryStatus.NotConfigured, error: null };

    const [context] = await this.db
      .select({
        name: users.name,
        account: users.account,
        email: users.email,
        phone: users.phone,
        wechatOpenId: users.wechatOpenId,
        wechatFollowed: users.wechatFollowed,
        language: users.language,
        content: alarmRecords.content,
        alarmTime: alarmRecords.alarmTime,
        lateBySeconds: alarmRecords.lateBySeconds,
        services: companies.services,
        serviceExpiry: companies.serviceExpiry,
      })
      .from(alarmRecords)
      .innerJoin(users, eq(users.id, row.userId))
      .leftJoin(companies, eq(companies.id, row.companyId))
      .where(eq(alarmRecords.id, row.alarmId));
    if (!context) return { status: DeliveryStatus.NoRecipient, error: 'user or alarm no longer exists' };
    // A channel the supplier switched off (or whose service ended) sends nothing and costs nothing.
    const company = context.services
      ? { services: context.services, serviceExpiry: context.serviceExpiry ?? {} }
      : null;
    if (!channelServiceOn(row.channel, company, this.clock()))
      return { status: DeliveryStatus.ServiceOff, error: null };
    const recipient: Recipient = {
      userId: row.userId,
      name: context.name,
      email: context.email ?? (context.account.includes('@') ? context.account : null),
      phone: context.phone ?? (context.account.includes('@') ? null : context.account),
      wechatOpenId: context.wechatOpenId,
      wechatFollowed: context.wechatFollowed,
    };
    const to = adapter.address(recipient);
    if (!to) return { status: DeliveryStatus.NoRecipient, error: null };
    await this.db
      .update(notificationDeliveries)
      .set({ recipient: to })
      .where(
        and(eq(notificationDeliveries.notificationId, row.id), eq(notificationDeliveries.claimToken, token)),
      );

    if (PHONE_CHANNELS.includes(row.channel) && (await this.overDailyCap(row, to)))
      return { status: DeliveryStatus.DailyCap, error: null };

    // The recipient's language (the `language` header of their latest calls, modules/users/user-language.ts);
    // the credit count below measures this very text, so a Chinese SMS is counted as Chinese.
    const language = context.language === 'cn' ? 'cn' : 'en';
    const input = {
      content: context.content,
      level: row.level,
      sequence: row.sequence,
      alarmTime: context.alarmTime,
      lateBySeconds: context.lateBySeconds,
    };
    const extra =
      row.channel === 'email' ? await this.alarmEmailExtra(row.alarmId, language).catch(() => null) : null;
    const text =
      row.channel === 'email'
        ? alarmEmailText(input, language) + (extra ? `\n\n${extra.text}` : '')
        : alarmShortText(input, language);
    const html = extra ? `${plainTextHtml(alarmEmailText(input, language))}${extra.html}` : undefined;
    if (!(await reserveCredit(this.db, row.companyId, row.id, row.channel, creditCost(row.channel, text)))) {
      await noticeNoCredit(this.db, row.companyId);
      return { status: DeliveryStatus.NoCredit, error: null };
    }
    // A worker that stalled past its lease must not send what another worker has taken over.
    if (!(await this.stillHeld(row.id, token))) throw new ClaimLost();
    const providerId = await adapter.send({
      to,
      subject: alarmSubject(input, language),
      text,
      ...(html ? { html } : {}),
      language,
      idempotencyKey: `alarm-notification-${row.id}`,
      notificationId: row.id,
    });
    return { status: DeliveryStatus.Sent, error: null, providerId };
  }

  private async stillHeld(notificationId: number, token: string): Promise<boolean> {
    const [held] = await this.db
      .select({ id: notificationDeliveries.notificationId })
      .from(notificationDeliveries)
      .where(
        and(
          eq(notificationDeliveries.notificationId, notificationId),
          eq(notificationDeliveries.claimToken, token),
          gt(notificationDeliveries.leaseUntil, this.clock()),
        ),
      );
    return Boolean(held);
  }

  private failure(row: ClaimedRow, error: unknown): Outcome {
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    const permanent = error instanceof ProviderError && error.permanent;
    if (!(error instanceof ProviderError))
      this.log.error({ err: error, notificationId: row.id }, 'alarm delivery error');
    if (permanent || row.attempts >= this.options.maxAttempts)
      return { status: DeliveryStatus.Failed, error: message };
    const delay = Math.min(this.options.retryMaxMs, this.options.retryBaseMs * 2 ** (row.attempts - 1));
    return {
      status: DeliveryStatus.Retrying,
      error: message,
      nextAttemptAt: new Date(this.clock().getTime() + delay),
    };
  }

  /** Alarm records already sent to this number today (UTC) on phone channels, this alarm aside. */
  private async overDailyCap(row: ClaimedRow, phone: string): Promise<boolean> {
    const dayStart = new Date(this.clock().getTime());
    dayStart.setUTCHours(0, 0, 0, 0);
    const [counted] = await this.db
      .select({ n: countDistinct(alarmNotifications.alarmId) })
      .from(alarmNotifications)
      .innerJoin(notificationDeliveries, eq(notificationDeliveries.notificationId, alarmNotifications.id))
      .where(
        and(
          eq(notificationDeliveries.recipient, phone),
          inArray(alarmNotifications.status, [DeliveryStatus.Sent, DeliveryStatus.Delivered]),
          inArray(alarmNotifications.channel, PHONE_CHANNELS),
          gte(alarmNotifications.sentAt, dayStart),
          ne(alarmNotifications.alarmId, row.alarmId),
        ),
      );
    return Number(counted?.n ?? 0) >= this.options.dailyCapPerPhone;
  }

  /** Records the outcome if this worker still holds the claim; false when it lost it. */
  private async finish(row: ClaimedRow, token: string, outcome: Outcome): Promise<boolean> {
    const now = this.clock();
    return this.db.transaction(async (tx) => {
      const [held] = await tx
        .select({ id: notificationDeliveries.notificationId })
        .from(notificationDeliveries)
        .where(
          and(
            eq(notificationDeliveries.notificationId, row.id),
            eq(notificationDeliveries.claimToken, token),
          ),
        )
        .for('update');
      if (!held) return false;
      const updated = await tx
        .update(alarmNotifications)
        .set({
          status: outcome.status,
          lastError: outcome.error ?? null,
          ...(outcome.status === DeliveryStatus.Sent ? { sentAt: now } : {}),
        })
        .where(and(eq(alarmNotifications.id, row.id), eq(alarmNotifications.status, DeliveryStatus.Sending)))
        .returning({ id: alarmNotifications.id });
      if (updated.length === 0) return false;
      await tx
        .update(notificationDeliveries)
        .set({
          claimToken: null,
          leaseUntil: null,
          nextAttemptAt: outcome.nextAttemptAt ?? null,
          ...(outcome.providerId ? { providerId: outcome.providerId } : {}),
          updatedAt: now,
        })
        .where(eq(notificationDeliveries.notificationId, row.id));
      return true;
    });
  }
}

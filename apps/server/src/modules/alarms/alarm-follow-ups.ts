import { type AlarmType, ResolveState } from '@coldchain/contract';
import { and, eq, isNotNull, lte, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type Db, queryRows, type Tx } from '../../db/client';
import { pgArray } from '../../db/pg-array';
import { companyMembers } from '../companies/companies.table';
import { devices, sensors } from '../devices/devices.table';
import type { LiveHub } from '../live/live-hub';
import { usersWhoMaySeeDeviceQuery } from '../org/access';
import { inSlot } from './alarm-engine';
import { audienceOfLevel } from './alarm-escalation';
import { slotOf } from './alarm-rules';
import {
  type Audience,
  liveAlarmMessage,
  type PendingPush,
  parsed,
  type SettingRow,
  usersWhoMaySeeDevice,
} from './alarm-writer';
import { alarmFollowUps, alarmNotifications, alarmRecords, alarmSettings } from './alarms.table';

/** Where follow-ups read the time: the system clock, or one a test moves by hand. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

/** Due rows taken per transaction; the rest wait for the next round of the same run. */
const BATCH = 50;

interface DueRow {
  followUp: typeof alarmFollowUps.$inferSelect;
  record: typeof alarmRecords.$inferSelect;
  setting: SettingRow | null;
  device: { id: number; companyId: number; name: string; serial: string; groupId: number | null };
  sensor: typeof sensors.$inferSelect | null;
}

/**
 * Reminders and escalation of open alarms, paced by the server's clock. A logger that buffers
 * ten minutes of readings delivers ten minutes of reading time in one upload: pacing reminders by
 * reading time sent them all at once and then none. Here each open alarm that still has a
 * reminder or an escalation to come has one row in `alarm_follow_ups` with when it is due; the
 * row is written with the alarm (same statement), so it survives a restart, and is claimed with
 * `FOR UPDATE SKIP LOCKED`, so two instances never send the same reminder. A reminder is never
 * sooner than `repeatIntervalSeconds` after the previous notification; an escalation never
 * sooner than `escalateAfterSeconds` after the previous level. Both stop when the alarm ends or
 * someone takes it in hand (resolve state no longer pending), or its setting is gone or
 * disabled; outside the setting's time slot they wait one more interval instead of sounding.
 */
export class AlarmFollowUps {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly db: Db,
    private readonly hub: LiveHub,
    private readonly log: FastifyBaseLogger,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Polls every `everyMs` (server.ts); tests call `runDue` with a clock they move. */
  start(everyMs: number) {
    if (this.timer) return;
    this.timer = setInterval(() => this.wake(), everyMs);
    this.timer.unref();
    this.wake();
  }

  async stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    while (this.running) await this.running;
  }

  /** Told after commit whenever reminders or escalations queued outbox rows (delivery wakes on it). */
  onNotified(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Sends every reminder and escalation due now and waits for them (tests, tools). */
  async runDue(): Promise<void> {
    this.wake();
    while (this.running) await this.running;
  }

  private wake() {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((err: unknown) => this.log.error({ err }, 'alarm reminders failed'))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  private async drain() {
    for (;;) {
      const now = this.clock();
      const pushes: PendingPush[] = [];
      const taken = await this.db.transaction(async (tx) => {
        const due = await claimDue(tx, now);
        if (due.length > 0)
          await writeFollowUps(
            tx,
            due.map((row) => decideFollowUp(row, now)),
            pushes,
          );
        return due.length;
      });
      await this.publish(pushes);
      if (taken < BATCH) return;
    }
  }

  private async publish(pushes: PendingPush[]) {
    if (pushes.length === 0) return;
    for (const push of pushes) {
      const userIds = push.userIds ?? (await usersWhoMaySeeDevice(this.db, push.companyId, push.deviceId));
      await this.hub.publish({ userIds, companyId: push.companyId, deviceId: push.deviceId }, push.message);
    }
    for (const listener of this.listeners) listener();
  }
}

/** Due follow-ups with their alarm, setting, device and sensor, locked for this transaction. */
function claimDue(tx: Tx, now: Date): Promise<DueRow[]> {
  return tx
    .select({
      followUp: alarmFollowUps,
      record: alarmRecords,
      setting: alarmSettings,
      device: {
        id: devices.id,
        companyId: devices.companyId,
        name: devices.name,
        serial: devices.serial,
        groupId: devices.groupId,
      },
      sensor: sensors,
    })
    .from(alarmFollowUps)
    .innerJoin(alarmRecords, eq(alarmRecords.id, alarmFollowUps.alarmId))
    .innerJoin(devices, eq(devices.id, alarmRecords.deviceId))
    .leftJoin(alarmSettings, eq(alarmSettings.id, alarmRecords.settingId))
    .leftJoin(sensors, eq(sensors.id, alarmRecords.sensorId))
    .where(
      or(
        and(isNotNull(alarmFollowUps.nextRepeatAt), lte(alarmFollowUps.nextRepeatAt, now)),
        and(isNotNull(alarmFollowUps.nextEscalateAt), lte(alarmFollowUps.nextEscalateAt, now)),
      ),
    )
    .orderBy(alarmFollowUps.alarmId)
    .limit(BATCH)
    .for('update', { of: [alarmFollowUps, alarmRecords], skipLocked: true });
}

const later = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000);
const isDue = (at: Date | null, now: Date) => at !== null && at.getTime() <= now.getTime();

/** One notification round of a follow-up: a reminder (the next count) or an escalation (the next level). */
interface Round {
  sequence: number;
  level: number;
  audience: Audience;
}

/** What one due row comes to: the alarm's count and level after its rounds, and what is due next. */
interface FollowUpDecision {
  row: DueRow;
  /** Nothing more to come: the row is deleted. */
  drop: boolean;
  count: number;
  level: number;
  rounds: Round[];
  nextRepeatAt: Date | null;
  nextEscalateAt: Date | null;
}

/**
 * Decides what is due of one alarm (no database work): a reminder when the repeat is due, an
 * escalation when the next level is, each only inside the setting's time slot (outside it, one
 * more interval); nothing more once the alarm ended, was taken in hand, or lost its setting.
 */
function decideFollowUp(row: DueRow, now: Date): FollowUpDecision {
  const { followUp: due, record, setting } = row;
  const decision: FollowUpDecision = {
    row,
    drop: true,
    count: record.count,
    level: record.level,
    rounds: [],
    nextRepeatAt: null,
    nextEscalateAt: null,
  };
  const over =
    record.endTime !== null || record.resolveState !== ResolveState.Pending || !setting || !setting.enabled;
  if (over) return decision;
  let { nextRepeatAt, nextEscalateAt } = due;
  const inTimeSlot = inSlot(slotOf(setting), now.getTime());

  if (isDue(nextRepeatAt, now)) {
    if (!inTimeSlot) {
      nextRepeatAt = later(now, setting.repeatIntervalSeconds);
    } else {
      decision.count += 1;
      decision.rounds.push({ sequence: decision.count, level: decision.level, audience: setting });
      nextRepeatAt = decision.count < setting.repeat ? later(now, setting.repeatIntervalSeconds) : null;
    }
  }
  if (isDue(nextEscalateAt, now)) {
    if (!inTimeSlot) {
      nextEscalateAt = later(now, setting.escalateAfterSeconds);
    } else {
      decision.level += 1;
      // An escalation notifies within the current round, so it does not use up the max alarm count.
      decision.rounds.push({
        sequence: decision.count,
        level: decision.level,
        audience: audienceOfLevel(setting, decision.level),
      });
      nextEscalateAt =
        decision.level < 3 && setting.escalateAfterSeconds > 0
          ? later(now, setting.escalateAfterSeconds)
          : null;
    }
  }
  return {
    ...decision,
    drop: nextRepeatAt === null && nextEscalateAt === null,
    nextRepeatAt,
    nextEscalateAt,
  };
}

/**
 * Writes a batch of follow-up decisions in one statement: each alarm's new count and level, each
 * round's outbox rows (one per notifier still in the company x channel, in the round's order),
 * the rows rescheduled or dropped; and answers who may see each notified alarm's device, for its
 * live messages (one per round, as each round leaves the alarm). One statement per batch instead
 * of two or three per alarm: a site-wide power cut gives hundreds of alarms whose reminders fall
 * due in the same minute.
 */
async function writeFollowUps(tx: Tx, decisions: FollowUpDecision[], pushes: PendingPush[]) {
  const notified = decisions.filter((d) => d.rounds.length > 0);
  const records = notified.map((d) => ({
    id: d.row.record.id,
    company_id: d.row.device.companyId,
    device_id: d.row.device.id,
    count: d.count,
    level: d.level,
  }));
  const rounds = notified.flatMap((d) =>
    d.rounds.map((round) => ({
      alarm_id: d.row.record.id,
      company_id: d.row.device.companyId,
      sequence: round.sequence,
      level: round.level,
      notifier_ids: round.audience.notifierIds,
      channels: round.audience.channels,
    })),
  );
  const kept = decisions
    .filter((d) => !d.drop)
    .map((d) => ({
      alarm_id: d.row.record.id,
      next_repeat_at: d.nextRepeatAt?.toISOString() ?? null,
      next_escalate_at: d.nextEscalateAt?.toISOString() ?? null,
    }));
  const dropped = decisions.filter((d) => d.drop).map((d) => d.row.record.id);
  const answered = await queryRows<{ id: number | string; recipients: (number | string)[] | string }>(
    tx,
    sql`with a as (
          select * from json_to_recordset(${JSON.stringify(records)}::json)
                    as a(id bigint, company_id bigint, device_id bigint, count int, level int)
        ), counted as (
          update ${alarmRecords} r set count = a.count, level = a.level
          from a where r.company_id = a.company_id and r.id = a.id
          returning 1
        ), rounds as (
          select * from rows from (json_to_recordset(${JSON.stringify(rounds)}::json)
                    as (alarm_id bigint, company_id bigint, sequence int, level int, notifier_ids bigint[], channels text[]))
                    with ordinality as x(alarm_id, company_id, sequence, level, notifier_ids, channels, ord)
        ), queued as (
          insert into ${alarmNotifications} (company_id, alarm_id, user_id, channel, sequence, level)
          select x.company_id, x.alarm_id, m.user_id, ch.channel, x.sequence, x.level
          from rounds x
          join ${companyMembers} m on m.company_id = x.company_id and m.user_id = any(x.notifier_ids)
          cross join unnest(x.channels) with ordinality as ch(channel, ord)
          order by x.ord, array_position(x.notifier_ids, m.user_id), ch.ord
          returning 1
        ), rescheduled as (
          update ${alarmFollowUps} f set next_repeat_at = k.next_repeat_at, next_escalate_at = k.next_escalate_at
          from json_to_recordset(${JSON.stringify(kept)}::json) as k(alarm_id bigint, next_repeat_at timestamptz, next_escalate_at timestamptz)
          where f.alarm_id = k.alarm_id
          returning 1
        ), gone as (
          delete from ${alarmFollowUps} where alarm_id = any(${pgArray(dropped)}::bigint[])
          returning 1
        )
        select a.id, (select coalesce(json_agg(v.user_id), '[]'::json)
                      from (${usersWhoMaySeeDeviceQuery(sql`a.company_id`, sql`a.device_id`)}) v) as recipients
        from a`,
  );
  const recipientsOf = new Map(answered.map((r) => [Number(r.id), parsed(r.recipients).map(Number)]));
  for (const d of notified) {
    const { record, device, sensor } = d.row;
    for (const round of d.rounds) {
      pushes.push({
        companyId: device.companyId,
        deviceId: device.id,
        userIds: recipientsOf.get(record.id) ?? [],
        message: liveAlarmMessage(
          device,
          sensor,
          record.alarmType as AlarmType,
          record.alarmTime.getTime(),
          record.content,
          {
            alarmId: record.id,
            level: round.level,
            count: round.sequence,
            lateBySeconds: record.lateBySeconds,
          },
        ),
      });
    }
  }
}

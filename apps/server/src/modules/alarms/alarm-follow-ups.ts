import { ResolveState } from '@coldchain/contract';
import { and, eq, isNotNull, lte, or } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client';
import { devices, sensors } from '../devices/devices.table';
import type { LiveHub } from '../live/live-hub';
import { inSlot } from './alarm-engine';
import { audienceOfLevel } from './alarm-escalation';
import { slotOf } from './alarm-rules';
import { notifyAgain, type PendingPush, type SettingRow, usersWhoMaySeeDevice } from './alarm-writer';
import { alarmFollowUps, alarmRecords, alarmSettings } from './alarms.table';

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
        for (const row of due) await followUp(tx, row, now, pushes);
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

/** Sends what is due of one alarm and schedules what comes next, or drops the row when nothing does. */
async function followUp(tx: Tx, row: DueRow, now: Date, pushes: PendingPush[]) {
  const { followUp: due, record, setting, device, sensor } = row;
  const drop = () => tx.delete(alarmFollowUps).where(eq(alarmFollowUps.alarmId, due.alarmId));
  const over =
    record.endTime !== null || record.resolveState !== ResolveState.Pending || !setting || !setting.enabled;
  if (over) return drop();
  let { nextRepeatAt, nextEscalateAt } = due;
  const inTimeSlot = inSlot(slotOf(setting), now.getTime());
  let count = record.count;
  let level = record.level;

  if (isDue(nextRepeatAt, now)) {
    if (!inTimeSlot) {
      nextRepeatAt = later(now, setting.repeatIntervalSeconds);
    } else {
      count += 1;
      await notifyAgain(tx, setting, device, sensor, record.id, { count }, pushes);
      nextRepeatAt = count < setting.repeat ? later(now, setting.repeatIntervalSeconds) : null;
    }
  }
  if (isDue(nextEscalateAt, now)) {
    if (!inTimeSlot) {
      nextEscalateAt = later(now, setting.escalateAfterSeconds);
    } else {
      level += 1;
      // An escalation notifies within the current round, so it does not use up the max alarm count.
      await notifyAgain(tx, audienceOfLevel(setting, level), device, sensor, record.id, { level }, pushes);
      nextEscalateAt =
        level < 3 && setting.escalateAfterSeconds > 0 ? later(now, setting.escalateAfterSeconds) : null;
    }
  }
  if (nextRepeatAt === null && nextEscalateAt === null) return drop();
  await tx
    .update(alarmFollowUps)
    .set({ nextRepeatAt, nextEscalateAt })
    .where(eq(alarmFollowUps.alarmId, due.alarmId));
}

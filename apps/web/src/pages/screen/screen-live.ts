import { SCREEN_ALARM_MAX, type ScreenAlarm } from '@coldchain/contract';
import {
  type LiveAlarm,
  LiveSocket,
  type LiveStatus,
  liveSocketUrl,
  RECONNECT_DELAY_MS,
} from '../../api/live-socket';
import { getAccessToken } from '../../session/storage';

/*
 * What keeps a wall screen current for weeks (docs/decisions.md "Data screens"): the console's live
 * socket with a growing pause between reconnects, alarms merged into one bounded list, and a
 * refresh of the first-paint call that pushes may ask for but never more often than once per
 * MIN_REFRESH_GAP_MS.
 */

/** The longest pause between two reconnects of a screen that cannot reach the server. */
export const RECONNECT_MAX_MS = 60_000;
/** A push asks for fresh figures this long after it came, so a burst of alarms costs one call. */
export const PUSH_REFRESH_DELAY_MS = 2_000;
/** At most one refresh caused by pushes per this many milliseconds. */
export const MIN_REFRESH_GAP_MS = 10_000;
/**
 * The safety refresh: readings are not pushed, and devices upload every 5 minutes by default, so
 * a minute shows each upload soon enough; one statement a minute per screen (docs/performance.md).
 */
export const SAFETY_REFRESH_MS = 60_000;

/**
 * Reconnect pauses: the spec's 5 seconds first, then doubling to RECONNECT_MAX_MS, each with up
 * to 20% jitter so that screens that lost the server together do not return in step.
 */
export class Backoff {
  private attempts = 0;

  constructor(
    private readonly baseMs = RECONNECT_DELAY_MS,
    private readonly maxMs = RECONNECT_MAX_MS,
    private readonly random: () => number = Math.random,
  ) {}

  next(): number {
    const delay = Math.min(this.maxMs, this.baseMs * 2 ** this.attempts);
    this.attempts = Math.min(this.attempts + 1, 16);
    return Math.round(delay * (0.8 + this.random() * 0.2));
  }

  reset(): void {
    this.attempts = 0;
  }
}

export interface ScreenSocketHandlers {
  onAlarm: (alarm: LiveAlarm) => void;
  onOtherPush: (type: string) => void;
  onStatus: (status: LiveStatus) => void;
  /** The socket is bound again after it was lost: pushes of the gap were missed. */
  onRebound: () => void;
}

/** The console's live socket (api/live-socket.ts), reconnecting with `Backoff`. */
export function openScreenSocket(handlers: ScreenSocketHandlers, backoff = new Backoff()): LiveSocket {
  let boundBefore = false;
  const options = {
    url: liveSocketUrl(),
    token: getAccessToken,
    onAlarm: handlers.onAlarm,
    onMessage: (type: string) => handlers.onOtherPush(type),
    onStatus: (status: LiveStatus) => {
      if (status === 'bound') {
        backoff.reset();
        if (boundBefore) handlers.onRebound();
        boundBefore = true;
      }
      handlers.onStatus(status);
    },
    // Read by LiveSocket each time it schedules a reconnect.
    get reconnectMs() {
      return backoff.next();
    },
  };
  const socket = new LiveSocket(options);
  socket.start();
  return socket;
}

/** A pushed alarm in the shape of the first paint's list. */
export function screenAlarmOf(push: LiveAlarm): ScreenAlarm {
  return {
    id: push.alarmId ?? `push:${push.deviceId}:${push.alarmType}:${push.alarmTime}`,
    deviceId: String(push.deviceId),
    deviceName: push.deviceName,
    deviceSerial: push.deviceSerial,
    departmentName: push.groupName ?? '',
    sensorId: null,
    channelName: push.channelName ?? null,
    alarmType: String(push.alarmType),
    level: push.level ?? 1,
    alarmTime: push.alarmTime,
    content: push.alarmContent,
    count: push.count ?? 1,
    lastValue: null,
  };
}

/** A pushed alarm and when this screen received it (its own clock). */
export interface Pushed {
  alarm: ScreenAlarm;
  receivedAt: number;
}

/**
 * The list on screen: pushes not yet in a paint, then the last paint's alarms, each alarm once
 * (a repeated notification updates its entry), newest first, at most SCREEN_ALARM_MAX.
 */
export function mergeAlarms(pushed: readonly Pushed[], painted: readonly ScreenAlarm[]): ScreenAlarm[] {
  const seen = new Set<string>();
  const out: ScreenAlarm[] = [];
  for (const alarm of [...pushed.map((p) => p.alarm), ...painted]) {
    if (seen.has(alarm.id)) continue;
    seen.add(alarm.id);
    out.push(alarm);
  }
  out.sort((a, b) => b.alarmTime - a.alarmTime);
  return out.slice(0, SCREEN_ALARM_MAX);
}

/** Adds a push to the pushed list (bounded), replacing an earlier push of the same alarm. */
export function addPushed(pushed: readonly Pushed[], alarm: ScreenAlarm, receivedAt: number): Pushed[] {
  return [{ alarm, receivedAt }, ...pushed.filter((p) => p.alarm.id !== alarm.id)].slice(0, SCREEN_ALARM_MAX);
}

/**
 * After a paint, the pushes it contains are dropped: those received before its request left.
 * A push received while the request was on its way may not be in it, so it stays until the next.
 */
export function prunePushed(pushed: readonly Pushed[], requestedAt: number): Pushed[] {
  return pushed.filter((p) => p.receivedAt >= requestedAt);
}

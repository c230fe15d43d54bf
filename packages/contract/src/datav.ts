import { z } from 'zod';
import type { EquipmentUseStateCounts } from './equipment';

/*
 * The full-screen dashboards /screen and /screen2 (issue 15 item 6; docs/API.md "Data screens").
 * One call paints a whole screen (`/api/datav/screenOverview`); the live socket keeps it current.
 * Times are epoch milliseconds, ids strings.
 */

const Id = z.coerce.string().regex(/^[1-9]\d{0,15}$/, { error: 'rule.id' });

/** How many sensors a wall of latest values shows at most: 6 x 8 tiles still read at 1920 px. */
export const SCREEN_SENSOR_MAX = 48;
/** Open alarms in the first paint; the live list keeps at most this many too. */
export const SCREEN_ALARM_MAX = 50;
/** Devices on the floor view: the rest are counted, not drawn. */
export const SCREEN_DEVICE_MAX = 300;
/** Departments in the organisation overview. */
export const SCREEN_DEPARTMENT_MAX = 60;
/** The alarm trend spans one of these. */
export const SCREEN_TREND_DAYS = [7, 30] as const;

export const ScreenOverviewRequest = z.object({
  /** The sensors of the wall of latest values; absent: the server picks (alarming first). */
  sensorIds: z.array(Id).max(SCREEN_SENSOR_MAX).optional(),
  trendDays: z.union([z.literal(7), z.literal(30)]).default(7),
});
export type ScreenOverviewRequest = z.input<typeof ScreenOverviewRequest>;

export const ScreenNoticeRequest = z.object({
  pageSize: z.coerce.number().int().min(1).max(20).default(5),
});
export type ScreenNoticeRequest = z.input<typeof ScreenNoticeRequest>;

export interface ScreenDepartment {
  id: string;
  pid: string;
  name: string;
  level: number;
  /** Devices placed directly in the department. */
  deviceCount: number;
  /** Of those, reporting normally or in alarm (states 1 and 2). */
  onlineCount: number;
  /** Open (unresolved) alarms on those devices. */
  openAlarms: number;
}

export interface ScreenAlarm {
  id: string;
  deviceId: string;
  deviceName: string;
  deviceSerial: string;
  departmentName: string;
  sensorId: string | null;
  channelName: string | null;
  alarmType: string;
  level: number;
  alarmTime: number;
  content: { cn: string; en: string };
  count: number;
  lastValue: number | null;
}

export interface ScreenSensor {
  id: string;
  deviceId: string;
  deviceName: string;
  channel: number;
  name: string;
  type: string;
  unit: string;
  value: number | null;
  updateTime: number | null;
  rangeMin: number;
  rangeMax: number;
  /** An open alarm on this sensor. */
  alarming: boolean;
}

export interface ScreenDevice {
  id: string;
  name: string;
  serial: string;
  state: number;
  departmentId: string | null;
  lng: number | null;
  lat: number | null;
  openAlarms: number;
}

export interface ScreenOverview {
  companyId: string;
  companyName: string;
  /** When the server read it: the screen shows how fresh the figures are. */
  generatedAt: number;
  /** Device counts per state "1".."6" (zeros without `device:view`). */
  deviceStates: Record<string, number>;
  deviceCount: number;
  /** Null without `equipment:view`. */
  equipmentStates: EquipmentUseStateCounts | null;
  departments: ScreenDepartment[];
  /** Open alarms, newest first, at most SCREEN_ALARM_MAX; `openAlarmTotal` counts them all. */
  openAlarms: ScreenAlarm[];
  openAlarmTotal: number;
  sensors: ScreenSensor[];
  /** At most SCREEN_DEVICE_MAX, alarming first; `deviceCount` counts them all. */
  devices: ScreenDevice[];
  /** Alarms raised and resolved per UTC day, oldest first, today last. */
  trend: { date: string; alarms: number; resolved: number }[];
}

/**
 * `/api/datav/redeemTicket` (public): the one-time ticket of `/api/datav/getEncryptionUser`,
 * exchanged once within its 5 minutes for a session of the user who asked for it, so a data
 * view opened from the header's shortcut (this console's /screen in another browser, or a
 * `dataViewPath` on another site whose server redeems it) never carries the console's token.
 */
export const RedeemTicketRequest = z.object({
  ticket: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{20,100}$/, { error: 'rule.ticket' }),
  platform: z.coerce.number().int().min(1).max(3).default(1),
});
export type RedeemTicketRequest = z.input<typeof RedeemTicketRequest>;

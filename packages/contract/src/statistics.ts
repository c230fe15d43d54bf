import { z } from 'zod';
import type { AlarmChannel, AlarmType } from './alarms';
import { AuditExportFormats } from './audit';
import { MAX_INSTANT_MS } from './rules';
import { SignPasswordField } from './signature';
import { isTimeZone } from './time-zone';

/**
 * The statistics page (`statistics`, menu "Statistics"): one call answers every chart of a period
 * (`/api/statistics/companyStatistics`), one call writes one chart's figures to a file
 * (`/api/statistics/exportStatistics`). docs/decisions.md "Statistics (issue 15)".
 */

/** Longest period one statistics call may cover. */
export const STATISTICS_MAX_DAYS = 366;
/** Periods up to this many days are counted per hour, longer ones per day. */
export const STATISTICS_HOURLY_MAX_DAYS = 3;
/** How many of the least available devices (below 100 %) the availability chart lists. */
export const STATISTICS_WORST_DEVICES = 10;

const DAY_MS = 86_400_000;

/** The bucket of a period: hours up to `STATISTICS_HOURLY_MAX_DAYS`, days above. */
export function statisticsBucket(startTime: number, endTime: number): StatisticsBucket {
  return endTime - startTime <= STATISTICS_HOURLY_MAX_DAYS * DAY_MS ? 'hour' : 'day';
}

export const StatisticsCharts = [
  'alarmsByType',
  'alarmsByLevel',
  'alarmsByDepartment',
  'resolveTime',
  'availability',
  'notifications',
  'credits',
] as const;
export type StatisticsChart = (typeof StatisticsCharts)[number];
export type StatisticsBucket = 'hour' | 'day';

/**
 * What became of a notification (alarm_notifications.status, grouped): the provider confirmed it
 * reached the phone (`delivered`), the provider took it (`sent`), it failed, it was never sent
 * (channel not configured, no address, no credit, daily cap), or it is still on its way.
 */
export const NotificationOutcomes = ['delivered', 'sent', 'failed', 'notSent', 'pending'] as const;
export type NotificationOutcome = (typeof NotificationOutcomes)[number];

const Id = z.coerce.string().regex(/^[1-9]\d{0,15}$/, { error: 'rule.id' });
const Instant = z.coerce
  .number({ error: 'rule.selectDevices' })
  .int()
  .nonnegative()
  .max(MAX_INSTANT_MS, { error: 'rule.instant' });

const PeriodFields = {
  startTime: Instant,
  endTime: Instant,
  /** IANA zone whose days (or hours) the figures are counted in: the browser's. UTC when absent. */
  timeZone: z.string().trim().max(64).refine(isTimeZone, { error: 'rule.timeZone' }).default('UTC'),
  /** Only this department and the departments below it (one the caller may see). */
  departmentId: Id.optional(),
};

function periodRules<T extends z.ZodType<{ startTime: number; endTime: number }>>(schema: T) {
  return schema
    .refine((r) => r.endTime > r.startTime, { error: 'rule.timeRange', path: ['endTime'] })
    .refine((r) => r.endTime - r.startTime <= STATISTICS_MAX_DAYS * DAY_MS, {
      error: 'rule.statisticsPeriod',
      path: ['endTime'],
    });
}

/** `/api/statistics/companyStatistics` */
export const StatisticsRequest = periodRules(z.object(PeriodFields));
export type StatisticsRequest = z.input<typeof StatisticsRequest>;
export type StatisticsQuery = z.output<typeof StatisticsRequest>;

/** `/api/statistics/exportStatistics`: one chart's figures as a file (the chart's own table). */
export const ExportStatisticsRequest = periodRules(
  z.object({
    ...PeriodFields,
    chart: z.enum(StatisticsCharts, { error: 'rule.statisticsChart' }),
    format: z.enum(AuditExportFormats, { error: 'rule.exportFormat' }),
    signPassword: SignPasswordField,
  }),
);
export type ExportStatisticsRequest = z.input<typeof ExportStatisticsRequest>;
export type ExportStatisticsQuery = z.output<typeof ExportStatisticsRequest>;

/** A department the caller may filter by (their own and everything below it). */
export interface StatisticsDepartment {
  id: string;
  name: string;
  parentId: string | null;
  level: number;
}

/** Counts per bucket, in the order of `Statistics.buckets`. */
export interface StatisticsSeries<K> {
  key: K;
  counts: number[];
}

/** Time from raising to resolving, in minutes, of the alarms resolved by a person. */
export interface ResolveTimeRow {
  /** Null: devices filed in no department. */
  departmentId: string | null;
  resolved: number;
  /** Still pending or in progress. */
  open: number;
  medianMinutes: number | null;
  p90Minutes: number | null;
  worstMinutes: number | null;
}

/**
 * Device-hours with at least one stored reading against device-hours expected, as the operation
 * report counts availability (docs/API.md "Operation reports"): a device is expected from the
 * hour it was added (or the period's start) until the period's end or now.
 */
export interface AvailabilityRow {
  departmentId: string | null;
  devices: number;
  expectedHours: number;
  coveredHours: number;
  /** coveredHours / expectedHours; null when nothing was expected. */
  ratio: number | null;
}

export interface AvailabilityDevice extends AvailabilityRow {
  deviceId: string;
  serial: string;
  name: string;
}

export interface NotificationRow {
  channel: AlarmChannel;
  counts: Record<NotificationOutcome, number>;
}

/**
 * Every chart of the statistics page for one period. A section the caller has no right to is null:
 * alarms, resolve times and notifications need `alarm:view`, availability `device:view`, credits
 * `billing:view`.
 */
export interface Statistics {
  startTime: number;
  endTime: number;
  timeZone: string;
  bucket: StatisticsBucket;
  /** Start of each bucket (epoch ms), in the zone's days or hours. */
  buckets: number[];
  departments: StatisticsDepartment[];
  alarms: {
    total: number;
    byType: StatisticsSeries<AlarmType>[];
    byLevel: StatisticsSeries<number>[];
    byDepartment: StatisticsSeries<string | null>[];
  } | null;
  resolveTime: { overall: ResolveTimeRow; rows: ResolveTimeRow[] } | null;
  availability: { overall: AvailabilityRow; rows: AvailabilityRow[]; worst: AvailabilityDevice[] } | null;
  notifications: { total: number; rows: NotificationRow[] } | null;
  credits: { total: number; byChannel: StatisticsSeries<AlarmChannel>[] } | null;
}

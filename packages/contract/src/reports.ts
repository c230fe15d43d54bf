import { z } from 'zod';
import { EpochMs } from './rules';
import { SignPasswordField } from './signature';
import { isTimeZone } from './time-zone';

const Id = z.coerce.string().regex(/^[1-9]\d{0,15}$/, { error: 'rule.id' });

/** What a signature printed on a report means (21 CFR 11.50). */
export const ReportSignMeanings = ['reviewed', 'approved'] as const;
export type ReportSignMeaning = (typeof ReportSignMeanings)[number];

/** Readings table steps of the sensor report, in minutes; every reading when absent. */
export const ReportIntervals = [5, 10, 15, 30, 60, 120, 240, 360, 720, 1440] as const;
/** Longest period one sensor report may cover. */
export const REPORT_MAX_DAYS = 366;

/** What every PDF report of readings asks: the period, the table step, the zone and the signature. */
const reportPeriodFields = {
  startTime: EpochMs,
  endTime: EpochMs,
  /** Minutes between rows of the readings table; absent: every reading. */
  interval: z.coerce
    .number()
    .int()
    .refine((m) => (ReportIntervals as readonly number[]).includes(m), { error: 'rule.reportInterval' })
    .optional(),
  /** IANA zone the report's times are written in; UTC when absent. */
  timeZone: z.string().trim().max(64).refine(isTimeZone, { error: 'rule.timeZone' }).optional(),
  signMeaning: z.enum(ReportSignMeanings, { error: 'rule.signMeaning' }).optional(),
  signPassword: SignPasswordField,
};

/** The period's checks: it ends after it starts and covers at most `REPORT_MAX_DAYS`. */
function withPeriodRules<T extends z.ZodType<{ startTime: number; endTime: number }>>(schema: T) {
  return schema
    .refine((r) => r.endTime > r.startTime, { error: 'rule.timeRange', path: ['endTime'] })
    .refine((r) => r.endTime - r.startTime <= REPORT_MAX_DAYS * 86_400_000, {
      error: 'rule.reportPeriod',
      path: ['endTime'],
    });
}

/**
 * `/api/report/sensorReport`: the PDF report of one sensor over a period (docs/API.md "Reports").
 * With `signMeaning` the caller signs it with their signature password.
 */
export const SensorReportRequest = withPeriodRules(z.object({ sensorId: Id, ...reportPeriodFields }));
export type SensorReportRequest = z.infer<typeof SensorReportRequest>;

/**
 * `/api/report/equipmentReport`: the same report for every sensor of one cold-chain equipment
 * (issue 15, "per sensor or per equipment").
 */
export const EquipmentReportRequest = withPeriodRules(z.object({ equipmentId: Id, ...reportPeriodFields }));
export type EquipmentReportRequest = z.infer<typeof EquipmentReportRequest>;

/** What the readings of one report are taken over, whichever report asks. */
export type ReportPeriod = Omit<SensorReportRequest, 'sensorId'>;

/** `/api/report/verifyReport`: a fingerprint printed on a report (64 hex digits, any case). */
export const VerifyReportRequest = z.object({
  sha256: z
    .string()
    .trim()
    .regex(/^[0-9a-fA-F]{64}$/, { error: 'rule.sha256' })
    .transform((s) => s.toLowerCase()),
});
export type VerifyReportRequest = z.infer<typeof VerifyReportRequest>;

export interface VerifyReportAnswer {
  found: boolean;
  fileName: string | null;
  generatedAt: number | null;
  generatedBy: string | null;
}

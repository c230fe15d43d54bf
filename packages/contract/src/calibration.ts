import { z } from 'zod';
import { UPLOAD_URL_PREFIX } from './profile';
import { MAX_INSTANT_MS } from './rules';

/*
 * Calibration records of a monitoring device (spec section 3 "Records": time, next time,
 * institution, certificate PDF under 5 MB). Times are epoch milliseconds, like every time on the wire.
 */

const Id = z.coerce.string().regex(/^[1-9]\d{0,15}$/, { error: 'rule.id' });
/** Not coerced: a missing time then reads "is required", not "has the wrong type". */
const Time = z.number().int().positive().max(MAX_INSTANT_MS, { error: 'rule.instant' });

/** Spec section 9: a reminder goes out this many days before the next calibration is due. */
export const CALIBRATION_REMINDER_DAYS = 30;
export const INSTITUTION_MAX = 100;

/** A certificate is a PDF the upload call stored (`purpose: 'calibration'`). */
export const CertificateUrl = z
  .string()
  .trim()
  .regex(new RegExp(`^${UPLOAD_URL_PREFIX}[a-f0-9]{32}\\.pdf$`), { error: 'rule.certificateUrl' });

/** `/api/device/addCalibration`. */
export const AddCalibrationRequest = z
  .object({
    deviceId: Id,
    calibratedAt: Time,
    nextDueAt: Time,
    institution: z.string().trim().min(1).max(INSTITUTION_MAX),
    certificateUrl: z.union([z.literal(''), CertificateUrl]).optional(),
  })
  .refine((r) => r.nextDueAt > r.calibratedAt, { error: 'rule.calibrationDue', path: ['nextDueAt'] });
export type AddCalibrationRequest = z.infer<typeof AddCalibrationRequest>;

/** `/api/device/pageCalibrations`: a device's records, newest calibration first. */
export const PageCalibrationsRequest = z.object({
  deviceId: Id,
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
});
export type PageCalibrationsRequest = z.infer<typeof PageCalibrationsRequest>;

/** `/api/device/deleteCalibration`. */
export const CalibrationIdRequest = z.object({ id: Id });
export type CalibrationIdRequest = z.infer<typeof CalibrationIdRequest>;

export interface CalibrationView {
  id: string;
  deviceId: string;
  calibratedAt: number;
  nextDueAt: number;
  institution: string;
  /** Where the certificate PDF is served; null when none was attached. */
  certificateUrl: string | null;
  createdBy: string | null;
  createTime: number;
}

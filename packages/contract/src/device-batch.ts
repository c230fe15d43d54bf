import { z } from 'zod';
import { ExportProgressField } from './export-progress';
import { MAX_INSTANT_MS } from './rules';
import { SignPasswordField } from './signature';
import { isTimeZone } from './time-zone';

/*
 * Batch actions on monitors (spec section 2 dialogs, sections 5-6): transfer, per-user
 * permission and data export. "Select at least one device, time period or record" (section 8)
 * is the message for an empty selection or a missing period.
 */

const Id = z.coerce.string().regex(/^[1-9]\d{0,15}$/, { error: 'rule.id' });
/** A selection: at least one device, at most a page of 500. */
const DeviceIds = z
  .array(Id, { error: 'rule.selectDevices' })
  .min(1, { error: 'rule.selectDevices' })
  .max(500);

/** `/api/device/batchTransfer`: to another department (and optionally a group of it). */
export const BatchTransferRequest = z.object({
  deviceIds: DeviceIds,
  departmentId: Id,
  groupId: Id.optional(),
});
export type BatchTransferRequest = z.infer<typeof BatchTransferRequest>;

export const DevicePermissionLevels = ['none', 'view', 'edit'] as const;
export type DevicePermissionLevel = (typeof DevicePermissionLevels)[number];

/** `/api/device/batchPermission`: sets (or with `none` removes) per-user rights on devices. */
export const BatchPermissionRequest = z.object({
  deviceIds: DeviceIds,
  userIds: z.array(Id, { error: 'rule.selectUsers' }).min(1, { error: 'rule.selectUsers' }).max(200),
  permission: z.enum(DevicePermissionLevels, { error: 'rule.permissionLevel' }),
});
export type BatchPermissionRequest = z.infer<typeof BatchPermissionRequest>;

/** `/api/device/devicePermissions` */
export const DevicePermissionsRequest = z.object({ deviceId: Id });
export type DevicePermissionsRequest = z.infer<typeof DevicePermissionsRequest>;

export interface DevicePermissionView {
  userId: string;
  name: string;
  account: string;
  permission: Exclude<DevicePermissionLevel, 'none'>;
}

export const ExportFormats = ['xlsx', 'csv', 'pdf'] as const;
export type ExportFormat = (typeof ExportFormats)[number];
/** Longest period one export may cover. */
export const EXPORT_MAX_DAYS = 366;

const Instant = z.coerce
  .number({ error: 'rule.selectDevices' })
  .int()
  .nonnegative()
  .max(MAX_INSTANT_MS, { error: 'rule.instant' });

/** `/api/device/exportData`: spec section 5, "Export needs a time period and a file format". */
export const ExportDataRequest = z
  .object({
    deviceIds: DeviceIds,
    startTime: Instant,
    endTime: Instant,
    format: z.enum(ExportFormats, { error: 'rule.exportFormat' }),
    /** IANA zone the times in the file are written in; UTC when absent. */
    timeZone: z.string().trim().max(64).refine(isTimeZone, { error: 'rule.timeZone' }).optional(),
    signPassword: SignPasswordField,
    progressId: ExportProgressField,
  })
  .refine((r) => r.endTime > r.startTime, { error: 'rule.timeRange', path: ['endTime'] })
  .refine((r) => r.endTime - r.startTime <= EXPORT_MAX_DAYS * 86_400_000, {
    error: 'rule.exportPeriod',
    path: ['endTime'],
  });
export type ExportDataRequest = z.infer<typeof ExportDataRequest>;

import {
  ExportAlarmsRequest,
  ExportDataRequest,
  ExportEquipmentRecordsRequest,
  ExportOperationLogRequest,
} from '@coldchain/contract';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Auth } from '../../plugins/auth';
import { exportAlarms } from '../alarms/alarm-export';
import { type Actor, recordAudit } from '../audit/audit.service';
import { exportOperationLog } from '../audit/audit-exports';
import { companyMembers } from '../companies/companies.table';
import { exportDeviceData } from '../devices/device-export';
import { devices } from '../devices/devices.table';
import { exportRecords } from '../equipment/equipment-export';
import { loadMemberAccess, visibleDevices } from '../org/access';
import type { ReportTaskRow } from './report-tasks.table';

export interface ReportFile {
  fileName: string;
  contentType: string;
  body: Buffer;
  /** PDF only: the fingerprint printed on its pages (for verifyReport). */
  fingerprint?: string;
}

/** The tag a task's owner must still hold for each type of file (besides `backup:edit`). */
const READ_TAG = {
  history: 'device:view',
  alarm: 'alarm:view',
  equipment: 'equipment:view',
  audit: 'audit:view',
};

/**
 * The rights of the task's owner today, as the auth plugin would give them on a request: a run
 * takes out only what its owner may still see (department scope, device grants, tags).
 */
async function ownerAuth(db: Db, task: ReportTaskRow): Promise<Auth> {
  const [member] = await db
    .select()
    .from(companyMembers)
    .where(and(eq(companyMembers.companyId, task.companyId), eq(companyMembers.userId, task.ownerId)));
  if (!member) throw new AppError('REPORT_OWNER_GONE');
  const access = await loadMemberAccess(db, member);
  if (!access.authTags.has('backup:edit') || !access.authTags.has(READ_TAG[task.type]))
    throw new AppError('REPORT_OWNER_NO_RIGHT');
  return {
    userId: task.ownerId,
    sessionId: 0,
    companyId: task.companyId,
    isAdmin: member.isAdmin,
    legalPerson: member.legalPerson,
    departmentId: access.departmentId,
    scopePath: access.scopePath,
    roleId: access.roleId,
    isDepartmentAdmin: access.isDepartmentAdmin,
    authTags: access.authTags,
    serviceTags: new Set(),
  };
}

/**
 * One file of one period, made by the export of the task's type (device data, alarm records,
 * equipment records, operation log): the same queries, columns, limits and audit entries as
 * the export buttons, run as the task's owner, in any of their formats (csv, xlsx, pdf).
 */
export async function buildReportFile(
  db: Db,
  task: ReportTaskRow,
  period: { startTime: number; endTime: number },
): Promise<ReportFile> {
  const auth = await ownerAuth(db, task);
  const actor: Actor = { companyId: task.companyId, userId: task.ownerId, ip: '' };
  const common = { ...period, format: task.format, timeZone: task.timeZone };
  const language = task.language;
  if (task.type === 'history') {
    const input = ExportDataRequest.parse({ ...common, deviceIds: task.deviceIds.map(String) });
    const file = await exportDeviceData(db, actor, visibleDevices(auth), input, language);
    return {
      fileName: file.filename,
      contentType: file.contentType,
      body: file.body,
      fingerprint: file.fingerprint,
    };
  }
  if (task.type === 'alarm') {
    const scope = task.deviceIds.length
      ? and(visibleDevices(auth), inArray(devices.id, task.deviceIds))!
      : visibleDevices(auth);
    const input = ExportAlarmsRequest.parse(common);
    const file = await exportAlarms(db, actor, task.ownerId, scope, input, language);
    return {
      fileName: file.filename,
      contentType: file.contentType,
      body: file.body,
      fingerprint: file.fingerprint,
    };
  }
  if (task.type === 'equipment') {
    const input = ExportEquipmentRecordsRequest.parse({
      format: task.format,
      timeZone: task.timeZone,
      equipmentId: String(task.equipmentIds[0]),
    });
    const signer = { userId: task.ownerId, companyId: task.companyId, ip: '' };
    const file = await exportRecords(db, actor, auth, signer, input, language);
    return {
      fileName: file.filename,
      contentType: file.contentType,
      body: file.body,
      fingerprint: file.fingerprint,
    };
  }
  const query = ExportOperationLogRequest.parse(common);
  const file = await exportOperationLog(db, task.companyId, query, language);
  // The export call audits itself in its route; a run audits here, as the export button would.
  await db.transaction((tx) =>
    recordAudit(tx, actor, {
      action: 'audit.exportOperationLog',
      targetType: 'audit',
      targetId: task.companyId,
      after: { ...query, rows: file.rowCount, reportTaskId: task.id },
    }),
  );
  return {
    fileName: file.filename,
    contentType: file.contentType,
    body: file.body,
    fingerprint: file.fingerprint,
  };
}

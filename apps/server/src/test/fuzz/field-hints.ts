import type { CompanyIds } from '../../modules/org/matrix-support';
import { edgeIds } from './edge-values';
import type { FieldHints, GenerateOptions } from './zod-arbitrary';

const idsOf = (c: CompanyIds) =>
  [
    c.deviceId,
    c.sensorId,
    c.departmentId,
    c.rootDepartmentId,
    c.roleId,
    c.adminRoleId,
    c.userId,
    c.groupId,
    c.settingId,
    c.alarmId,
    c.noticeId,
    c.joinRequestId,
    c.companyId,
  ].map(String);

/**
 * Generation options for a caller: ids of the caller's company (so handlers reach deep code), of
 * the other company (tenant crossing) and edge ids; plausible values for fields whose rules a
 * schema cannot show (department codes, times around now, time zones).
 */
export function generateOptions(own: CompanyIds, other: CompanyIds): GenerateOptions {
  const now = Date.now();
  const times = [now - 3_600_000, now, now - 400 * 86_400_000, 0, 8.64e15, -1, 1e10, now + 86_400_000];
  const hints: FieldHints = {
    deviceId: [String(own.deviceId), String(other.deviceId)],
    sensorId: [String(own.sensorId), String(other.sensorId)],
    targetId: [String(own.sensorId), String(own.deviceId), String(other.sensorId)],
    departmentId: [String(own.departmentId), String(own.rootDepartmentId), String(other.departmentId)],
    parentId: [String(own.rootDepartmentId), String(own.groupId), String(other.rootDepartmentId)],
    userId: [String(own.userId), String(other.userId)],
    roleId: [String(own.roleId), String(other.roleId)],
    alarmId: [String(own.alarmId), String(other.alarmId)],
    groupId: [String(own.groupId), String(other.groupId)],
    code: [own.departmentCode, other.departmentCode],
    ticket: ['0'.repeat(64)],
    startTime: times,
    endTime: times,
    calibratedAt: times,
    nextDueAt: times,
    timeZone: ['UTC', 'Asia/Shanghai', 'Not/A_Zone', '+25:00'],
    pageNum: [1, 2, 10_000_000],
    pageSize: [1, 20, 100],
  };
  return { hints, ids: [...idsOf(own), ...idsOf(other), own.inviteCode, ...edgeIds] };
}

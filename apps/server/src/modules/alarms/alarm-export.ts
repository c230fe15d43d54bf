import type { AlarmRecordView, ExportAlarmsRequest, WireLanguage } from '@coldchain/contract';
import { and, count, desc, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { alarmExportTexts } from '../../i18n/catalogues/alarms';
import { AppError } from '../../lib/app-error';
import { idFromWire } from '../../lib/ids';
import { type Actor, recordAudit } from '../audit/audit.service';
import {
  buildExportFile,
  dayStamp,
  type ExportColumn,
  type ExportFile,
  formatInstant,
} from '../audit/export-file';
import { devices, sensors } from '../devices/devices.table';
import { deviceIdsWhere } from '../org/access';
import { recordExportPdf } from '../reports/report-files.service';
import { authorizeExport } from '../signature/signature.service';
import { users } from '../users/users.table';
import { presentAlarm } from './alarms.service';
import { alarmRecords } from './alarms.table';

/**
 * Above this many records an export is refused with a clear message rather than building a huge
 * file in memory. An object (not a const) so that tests can lower it.
 */
export const alarmExportLimits = { maxRows: 50_000 };

const resolvers = alias(users, 'resolvers');

function columns(language: WireLanguage, timeZone: string): ExportColumn<AlarmRecordView>[] {
  const { columns: h, types, resolveStates, level } = alarmExportTexts;
  const time = (ms: number | null) => (ms === null ? '' : formatInstant(ms, timeZone));
  return [
    { header: h.time[language], width: 20, value: (r) => time(r.alarmTime) },
    { header: h.device[language], width: 22, value: (r) => r.deviceName },
    { header: h.serial[language], width: 16, value: (r) => r.deviceSerial },
    { header: h.sensor[language], width: 16, value: (r) => r.channelName ?? '' },
    { header: h.type[language], width: 18, value: (r) => types[r.alarmType]?.[language] ?? r.alarmType },
    {
      header: h.level[language],
      width: 10,
      value: (r) => level[language].replace('{level}', String(r.level)),
    },
    { header: h.content[language], width: 40, value: (r) => r.content[language] || r.content.en },
    { header: h.count[language], width: 8, value: (r) => r.count },
    {
      header: h.resolveState[language],
      width: 14,
      value: (r) => resolveStates[r.resolveState]?.[language] ?? String(r.resolveState),
    },
    { header: h.resolver[language], width: 14, value: (r) => r.resolverName ?? '' },
    { header: h.resolveTime[language], width: 20, value: (r) => time(r.resolveTime) },
    { header: h.cause[language], width: 30, value: (r) => r.cause ?? '' },
    { header: h.action[language], width: 30, value: (r) => r.action ?? '' },
  ];
}

/**
 * `/api/alarm/exportAlarms`: the alarm records of a period, with the list's filters, of the
 * devices the caller may see, newest first. Taking the records out is on the audit trail.
 */
export async function exportAlarms(
  db: Db,
  actor: Actor,
  /** The caller: their export flag and the company's audit signature apply (modules/signature). */
  userId: number,
  /** Devices the caller may see (org/access.ts). */
  scope: SQL,
  input: ExportAlarmsRequest,
  language: WireLanguage,
): Promise<ExportFile> {
  const signature = await authorizeExport(
    db,
    { userId, companyId: actor.companyId, ip: actor.ip },
    input.signPassword,
  );
  const filters: SQL[] = [
    eq(alarmRecords.companyId, actor.companyId),
    sql`${alarmRecords.deviceId} IN ${deviceIdsWhere(scope)}`,
    gte(alarmRecords.alarmTime, new Date(input.startTime)),
    lt(alarmRecords.alarmTime, new Date(input.endTime)),
  ];
  if (input.resolveState) filters.push(eq(alarmRecords.resolveState, input.resolveState));
  if (input.alarmType) filters.push(eq(alarmRecords.alarmType, input.alarmType));
  if (input.deviceId) filters.push(eq(alarmRecords.deviceId, idFromWire(input.deviceId)!));
  const where = and(...filters);
  const [total] = await db.select({ n: count() }).from(alarmRecords).where(where);
  const n = Number(total?.n ?? 0);
  if (n > alarmExportLimits.maxRows)
    throw new AppError('ALARM_EXPORT_TOO_LARGE', { count: n, max: alarmExportLimits.maxRows });
  const rows = await db
    .select({
      record: alarmRecords,
      deviceSerial: devices.serial,
      deviceName: devices.name,
      channelName: sensors.name,
      resolverName: resolvers.name,
    })
    .from(alarmRecords)
    .innerJoin(devices, eq(devices.id, alarmRecords.deviceId))
    .leftJoin(sensors, eq(sensors.id, alarmRecords.sensorId))
    .leftJoin(resolvers, eq(resolvers.id, alarmRecords.resolverId))
    .where(where)
    .orderBy(desc(alarmRecords.alarmTime), desc(alarmRecords.id));
  const timeZone = input.timeZone ?? 'UTC';
  const file = await buildExportFile(
    input.format,
    alarmExportTexts.sheet[language],
    columns(language, timeZone),
    rows.map(presentAlarm),
    `alarms-${dayStamp(input.startTime, timeZone)}-${dayStamp(input.endTime, timeZone)}`,
    language,
  );
  const { signPassword: _, ...query } = input;
  await db.transaction(async (tx) => {
    await recordAudit(tx, actor, {
      action: 'alarm.export',
      targetType: 'alarm',
      targetId: actor.companyId,
      after: { ...query, rows: file.rowCount, ...(signature ? { signature } : {}) },
    });
    // A PDF's printed fingerprint can be checked later (verifyReport).
    await recordExportPdf(tx, actor, 'alarm.export', file);
  });
  return file;
}

import type {
  EquipmentItem,
  EquipmentRecordView,
  ExportEquipmentRecordsRequest,
  ExportEquipmentRequest,
  WireLanguage,
} from '@coldchain/contract';
import { count, desc } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { equipmentExportTexts as texts } from '../../i18n/catalogues/equipment';
import { AppError } from '../../lib/app-error';
import type { Auth } from '../../plugins/auth';
import { type Actor, recordAudit } from '../audit/audit.service';
import {
  buildExportFile,
  dayStamp,
  type ExportColumn,
  type ExportFile,
  formatInstant,
} from '../audit/export-file';
import { authorizeExport, type Signer } from '../signature/signature.service';
import { equipmentWhere, itemQuery, presentItem } from './equipment.service';
import { equipment } from './equipment.table';
import { pageRecords } from './equipment-records.service';

/** Above this many rows an export is refused rather than built in memory. An object so tests can lower it. */
export const equipmentExportLimits = { maxRows: 50_000 };

function tooLarge(n: number) {
  if (n > equipmentExportLimits.maxRows)
    throw new AppError('EQUIPMENT_EXPORT_TOO_LARGE', { count: n, max: equipmentExportLimits.maxRows });
}

function equipmentColumns(language: WireLanguage, timeZone: string): ExportColumn<EquipmentItem>[] {
  const h = texts.columns;
  return [
    { header: h.serial[language], width: 14, value: (e) => e.serial },
    { header: h.name[language], width: 24, value: (e) => e.name },
    { header: h.type[language], width: 16, value: (e) => e.typeName },
    { header: h.department[language], width: 16, value: (e) => e.departmentName },
    { header: h.group[language], width: 14, value: (e) => e.groupName },
    { header: h.useState[language], width: 12, value: (e) => texts.useStates[e.useState]?.[language] ?? '' },
    { header: h.region[language], width: 18, value: (e) => e.region },
    { header: h.address[language], width: 28, value: (e) => e.address },
    { header: h.sensors[language], width: 8, value: (e) => e.sensorCount },
    {
      header: h.nextCalibration[language],
      width: 20,
      value: (e) => (e.nextCalibrationTime === null ? '' : formatInstant(e.nextCalibrationTime, timeZone)),
    },
    { header: h.remarks[language], width: 28, value: (e) => e.remarks },
    { header: h.createTime[language], width: 20, value: (e) => formatInstant(e.createTime, timeZone) },
  ];
}

/** The kind's own fields as one "label: value; ..." cell, in the file's language. */
function recordDetails(r: EquipmentRecordView, language: WireLanguage, timeZone: string): string {
  const instantFields = new Set(['nextDueAt', 'repairTime', 'endTime']);
  const parts: string[] = [];
  for (const [field, label] of Object.entries(texts.fields)) {
    const value = r[field];
    if (value === undefined || value === null || value === '') continue;
    const text =
      typeof value === 'boolean'
        ? texts.values[value ? 'yes' : 'no']![language]
        : instantFields.has(field) && typeof value === 'number'
          ? formatInstant(value, timeZone)
          : typeof value === 'string'
            ? (texts.values[value]?.[language] ?? value)
            : String(value);
    parts.push(`${label[language]}: ${text}`);
  }
  return parts.join('; ');
}

function recordColumns(language: WireLanguage, timeZone: string): ExportColumn<EquipmentRecordView>[] {
  const h = texts.columns;
  return [
    { header: h.time[language], width: 20, value: (r) => formatInstant(r.time, timeZone) },
    { header: h.kind[language], width: 14, value: (r) => texts.kinds[r.kind]?.[language] ?? r.kind },
    { header: h.details[language], width: 60, value: (r) => recordDetails(r, language, timeZone) },
    { header: h.createdBy[language], width: 14, value: (r) => r.createdByName },
    { header: h.createTime[language], width: 20, value: (r) => formatInstant(r.createTime, timeZone) },
  ];
}

async function audited(
  db: Db,
  actor: Actor,
  action: string,
  targetId: number,
  input: { signPassword?: string },
  rows: number,
  signature: unknown,
) {
  const { signPassword: _, ...query } = input;
  await db.transaction((tx) =>
    recordAudit(tx, actor, {
      action,
      targetType: 'equipment',
      targetId,
      after: { ...query, rows, ...(signature ? { signature } : {}) },
    }),
  );
}

/** `/api/equipment/exportEquipment`: the list with its filters; taking it out is audited. */
export async function exportEquipment(
  db: Db,
  actor: Actor,
  auth: Auth,
  signer: Signer,
  input: ExportEquipmentRequest,
  language: WireLanguage,
): Promise<ExportFile> {
  const signature = await authorizeExport(db, signer, input.signPassword);
  const where = equipmentWhere(auth, input);
  const [total] = await db.select({ n: count() }).from(equipment).where(where);
  tooLarge(Number(total?.n ?? 0));
  const rows = await itemQuery(db).where(where).orderBy(desc(equipment.createdAt), desc(equipment.id));
  const timeZone = input.timeZone ?? 'UTC';
  const file = await buildExportFile(
    input.format,
    texts.equipmentSheet[language],
    equipmentColumns(language, timeZone),
    rows.map(presentItem),
    `equipment-${dayStamp(Date.now(), timeZone)}`,
  );
  await audited(db, actor, 'equipment.export', actor.companyId, input, file.rowCount, signature);
  return file;
}

/** `/api/equipment/exportRecords`: one equipment's timeline, as `pageRecords` lists it. */
export async function exportRecords(
  db: Db,
  actor: Actor,
  auth: Auth,
  signer: Signer,
  input: ExportEquipmentRecordsRequest,
  language: WireLanguage,
): Promise<ExportFile> {
  const signature = await authorizeExport(db, signer, input.signPassword);
  const page = await pageRecords(db, auth, {
    equipmentId: input.equipmentId,
    kind: input.kind,
    pageNum: 1,
    pageSize: equipmentExportLimits.maxRows + 1,
  });
  tooLarge(page.total);
  const timeZone = input.timeZone ?? 'UTC';
  const file = await buildExportFile(
    input.format,
    texts.recordsSheet[language],
    recordColumns(language, timeZone),
    page.list,
    `equipment-records-${input.equipmentId}-${dayStamp(Date.now(), timeZone)}`,
  );
  await audited(
    db,
    actor,
    'equipment.exportRecords',
    Number(input.equipmentId),
    input,
    file.rowCount,
    signature,
  );
  return file;
}

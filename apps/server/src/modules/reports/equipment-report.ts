import type { EquipmentReportRequest, WireLanguage } from '@coldchain/contract';
import { asc, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { reportTexts } from '../../i18n/catalogues/reports';
import { AppError } from '../../lib/app-error';
import type { Auth } from '../../plugins/auth';
import type { Actor } from '../audit/audit.service';
import { dayStamp } from '../audit/export-file';
import { companies } from '../companies/companies.table';
import { sensors } from '../devices/devices.table';
import { equipmentSensors, equipmentTypes } from '../equipment/equipment.table';
import { equipmentOf } from '../equipment/equipment-access';
import type { FileStore } from '../files/store/store';
import { deviceIdsWhere } from '../org/access';
import { departments } from '../org/org.table';
import type { Signer } from '../signature/signature.service';
import type { PdfSection } from './pdf-writer';
import {
  type GeneratedReport,
  issueReport,
  reportHeaderTail,
  sensorReadingsSections,
  sensorSummarySections,
  signatureSections,
} from './sensor-report';
import { loadSensorReportData, type SensorReportData } from './sensor-report-data';

/** A report of 40 sensors over a year is already ~20k pages of tables; more is never one document. */
export const EQUIPMENT_REPORT_MAX_SENSORS = 40;

function rangeOf(data: SensorReportData): string {
  if (data.low === null && data.high === null) return '-';
  return `${data.low ?? '-∞'} ~ ${data.high ?? '+∞'} ${data.unit}`;
}

/**
 * `/api/report/equipmentReport`: the sensor report for every sensor that measures one cold-chain
 * equipment, in one PDF with one fingerprint and one set of signatures. The equipment must be in
 * the caller's department scope; of its sensors, those on monitors the caller sees are printed
 * (and the count of the others is said, so a partial report never looks complete).
 */
export async function generateEquipmentReport(
  db: Db,
  options: { files: FileStore; activationEnergyKj: number },
  who: Signer,
  actor: Actor,
  auth: Auth,
  scope: SQL,
  input: EquipmentReportRequest,
  language: WireLanguage,
): Promise<GeneratedReport> {
  return issueReport(db, options.files, who, actor, { kind: 'equipmentReport', input }, async (context) => {
    const item = await equipmentOf(db, auth, input.equipmentId);
    const [facts] = await db
      .select({ company: companies.name, department: departments.name, type: equipmentTypes.name })
      .from(companies)
      .leftJoin(departments, eq(departments.id, sql`${item.departmentId}`))
      .leftJoin(equipmentTypes, eq(equipmentTypes.id, sql`${item.typeId}`))
      .where(eq(companies.id, item.companyId));
    const bound = await db
      .select({
        id: sensors.id,
        visible: sql<boolean>`${sensors.deviceId} in ${deviceIdsWhere(scope)}`,
      })
      .from(equipmentSensors)
      .innerJoin(sensors, eq(sensors.id, equipmentSensors.sensorId))
      .where(eq(equipmentSensors.equipmentId, item.id))
      .orderBy(asc(sensors.deviceId), asc(sensors.channel));
    const shown = bound.filter((s) => s.visible);
    if (shown.length === 0) throw new AppError('REPORT_EQUIPMENT_NO_SENSORS');
    if (shown.length > EQUIPMENT_REPORT_MAX_SENSORS) throw new AppError('REPORT_EQUIPMENT_TOO_MANY_SENSORS');
    const all: SensorReportData[] = [];
    for (const s of shown)
      all.push(
        await loadSensorReportData(
          db,
          scope,
          { ...input, sensorId: String(s.id) },
          options.activationEnergyKj,
        ),
      );

    const t = (text: Record<WireLanguage, string>) => text[language];
    const e = reportTexts.equipment;
    const title = (d: SensorReportData) => `${d.device} (${d.serial}) · ${d.sensor}`;
    const hidden = bound.length - shown.length;
    const overview: PdfSection[] = [
      { kind: 'heading', text: t(e.sensors) },
      {
        kind: 'table',
        columns: [
          { header: t(reportTexts.sensor.device), weight: 2 },
          { header: t(reportTexts.sensor.sensor), weight: 1 },
          { header: t(reportTexts.sensor.range), weight: 1.2 },
        ],
        rows: all.map((d) => [`${d.device} (${d.serial})`, d.sensor, rangeOf(d)]),
      },
      ...(hidden > 0
        ? [{ kind: 'paragraph' as const, text: t(e.hiddenSensors).replace('{n}', String(hidden)) }]
        : []),
    ];
    const zone = input.timeZone ?? 'UTC';
    return {
      document: {
        language,
        title: t(e.title),
        header: [
          [t(reportTexts.sensor.company), facts?.company ?? ''],
          [t(reportTexts.sensor.department), facts?.department ?? ''],
          [t(e.equipment), item.name],
          [t(e.serial), item.serial],
          [t(e.type), facts?.type ?? ''],
          ...reportHeaderTail(input, context, language),
        ],
        sections: [
          ...overview,
          ...all.flatMap((d): PdfSection[] => [
            { kind: 'heading', text: title(d) },
            ...sensorSummarySections(d, input, language),
          ]),
          ...signatureSections(context.signatures, zone, language),
          ...all.flatMap((d): PdfSection[] => [
            { kind: 'heading', text: title(d) },
            ...sensorReadingsSections(d, input, language),
          ]),
        ],
      },
      fileName: `equipment-report-${item.serial}-${dayStamp(input.startTime, zone)}-${dayStamp(input.endTime, zone)}.pdf`,
    };
  });
}

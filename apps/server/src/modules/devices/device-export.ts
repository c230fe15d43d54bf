import type { ExportDataRequest, WireLanguage } from '@coldchain/contract';
import { asc, inArray, type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { type Actor, recordAudit } from '../audit/audit.service';
import { buildExportFile, type ExportColumn, type ExportFile } from '../audit/export-file';
import { recordExportPdf } from '../reports/report-files.service';
import { instantFormatter } from '../reports/report-time';
import { hiddenRanges } from '../service-periods/hidden-ranges';
import { inRanges } from '../service-periods/time-ranges';
import type { Signature } from '../signature/signature.service';
import { storedReadings } from '../telemetry/reading-sources';
import { sensors } from './devices.table';
import { selectedDevices } from './devices-batch.service';

/** Above this many readings an export is refused: the file is built in memory. */
export const EXPORT_MAX_ROWS = 300_000;

type Texts = Record<WireLanguage, string>;

/** The columns of the readings file: header in both languages, width, and the cell of a line. */
const COLUMNS: Array<{ header: Texts; width: number; value: (line: ExportLine) => string | number }> = [
  { header: { en: 'Serial number', cn: '序列号' }, width: 16, value: (l) => l.serial },
  { header: { en: 'Device', cn: '设备' }, width: 24, value: (l) => l.device },
  { header: { en: 'Channel', cn: '通道' }, width: 8, value: (l) => l.channel },
  { header: { en: 'Sensor', cn: '传感器' }, width: 18, value: (l) => l.sensor },
  { header: { en: 'Time', cn: '时间' }, width: 20, value: (l) => l.time },
  { header: { en: 'Value', cn: '数值' }, width: 10, value: (l) => l.value },
  { header: { en: 'Unit', cn: '单位' }, width: 8, value: (l) => l.unit },
];

const SHEET_NAME: Texts = { en: 'Readings', cn: '数据' };

interface ExportLine {
  serial: string;
  device: string;
  channel: number;
  sensor: string;
  time: string;
  value: number;
  unit: string;
}

/**
 * `/api/device/exportData` (spec sections 2, 5 and 6): the stored readings of the selected devices
 * over a period, one row per reading, as xlsx or csv. Only devices the caller may see, and only
 * readings outside the device's unrecovered lapsed service periods; the export itself is written to
 * the audit trail (who took which data out, and when).
 */
export async function exportDeviceData(
  db: Db,
  actor: Actor,
  visible: SQL,
  input: ExportDataRequest,
  language: WireLanguage,
  /** The export's signature, checked by the route (modules/signature); null when unsigned. */
  signature: Signature | null = null,
): Promise<ExportFile> {
  const rows = await selectedDevices(db, visible, input.deviceIds);
  const deviceIds = rows.map((d) => d.id);
  const sensorRows = await db
    .select()
    .from(sensors)
    .where(inArray(sensors.deviceId, deviceIds))
    .orderBy(asc(sensors.channel));
  const sensorIds = sensorRows.map((s) => s.id);
  // Recent readings and packed ones alike (telemetry/reading-sources.ts).
  const source = storedReadings(sensorIds.length ? sensorIds : [-1], input.startTime, input.endTime);
  const [total] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from (${source}) r`);
  const n = Number(total?.n ?? 0);
  if (n > EXPORT_MAX_ROWS) throw new AppError('EXPORT_TOO_LARGE', { count: n });
  // One row per sensor with its readings as two arrays, in time order: the embedded database
  // hands over 100 rows of arrays three times faster than 288 000 rows (docs/benchmarks.md).
  const perSensor = await queryRows<{ sensor_id: string | number; ms: number[]; v: number[] }>(
    db,
    sql`select sensor_id, array_agg((extract(epoch from ts) * 1000)::float8 order by ts) as ms,
          array_agg(value order by ts) as v
        from (${source}) r group by sensor_id`,
  );
  const readingsOf = new Map(perSensor.map((r) => [Number(r.sensor_id), r]));

  // Readings of a lapsed service period stay out until a recovery order covers them
  // (docs/decisions.md, "Data recovery").
  const hidden = await hiddenRanges(db, deviceIds);
  const time = instantFormatter(input.timeZone ?? 'UTC');
  // Devices in the order chosen, each device's sensors by channel, each sensor's readings by time.
  const lines: ExportLine[] = [];
  for (const device of rows) {
    const ranges = hidden.get(device.id) ?? [];
    for (const sensor of sensorRows) {
      if (sensor.deviceId !== device.id) continue;
      const readings = readingsOf.get(sensor.id);
      if (!readings) continue;
      for (let i = 0; i < readings.ms.length; i++) {
        const ms = Math.round(Number(readings.ms[i]));
        if (ranges.length && inRanges(ranges, ms)) continue;
        lines.push({
          serial: device.serial,
          device: device.name,
          channel: sensor.channel,
          sensor: sensor.name,
          time: time(ms),
          value: Number(readings.v[i]),
          unit: sensor.unit,
        });
      }
    }
  }

  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10).replaceAll('-', '');
  const baseName = `device-data-${day(input.startTime)}-${day(input.endTime)}`;
  // Through the one writer of every export (audit/export-file.ts), which neutralises formulas.
  const columns: ExportColumn<ExportLine>[] = COLUMNS.map((c) => ({
    header: c.header[language],
    width: c.width,
    value: c.value,
  }));
  const built = await buildExportFile(input.format, SHEET_NAME[language], columns, lines, baseName, language);
  await db.transaction(async (tx) => {
    await recordAudit(tx, actor, {
      action: 'device.exportData',
      targetType: 'device',
      targetId: deviceIds.join(','),
      after: {
        deviceIds,
        startTime: input.startTime,
        endTime: input.endTime,
        format: input.format,
        rows: lines.length,
        ...(signature ? { signature } : {}),
      },
    });
    // A PDF's printed fingerprint can be checked later (verifyReport).
    await recordExportPdf(tx, actor, 'device.exportData', built);
  });
  return built;
}

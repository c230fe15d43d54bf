import {
  ReportIntervals,
  type ReportPeriod,
  type ReportSignMeaning,
  type SensorReportRequest,
  type WireLanguage,
} from '@coldchain/contract';
import type { SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { alarmExportTexts } from '../../i18n/catalogues/alarms';
import { reportTexts } from '../../i18n/catalogues/reports';
import { AppError } from '../../lib/app-error';
import { type Actor, recordAudit } from '../audit/audit.service';
import { dayStamp } from '../audit/export-file';
import type { FileStore } from '../files/store/store';
import { loadSigner, type Signer, verifySignature } from '../signature/signature.service';
import { thinSeries } from './pdf-chart';
import { type PdfReport, type PdfSection, renderPdf } from './pdf-writer';
import { sampleAtInterval, tableIntervalMinutes } from './report-figures';
import { recordReportFile } from './report-files.service';
import { instantFormatter } from './report-time';
import { loadSensorReportData, type SensorReportData } from './sensor-report-data';

/** Points the chart draws at most (bucket minimum and maximum, so excursions stay visible). */
const CHART_POINTS = 1_200;

export interface ReportSignature {
  signedBy: string;
  signedAt: number;
  meaning: ReportSignMeaning;
}

export interface SensorReportContext {
  generatedAt: number;
  generatedBy: string;
  signatures: ReportSignature[];
}

const fixed = (v: number | null, unit: string) => (v === null ? '-' : `${v.toFixed(2)} ${unit}`);

function rangeText(data: SensorReportData): string {
  if (data.low === null && data.high === null) return '-';
  return `${data.low ?? '-∞'} ~ ${data.high ?? '+∞'} ${data.unit}`;
}

function intervalText(minutes: number): string {
  return minutes % 60 === 0 ? `${minutes / 60} h` : `${minutes} min`;
}

type Texts = Record<WireLanguage, string>;

/** Chart, statistics and excursions of one sensor over the period: what a reader looks at first. */
export function sensorSummarySections(
  data: SensorReportData,
  period: ReportPeriod,
  language: WireLanguage,
): PdfSection[] {
  const t = (text: Texts) => text[language];
  const s = reportTexts.sensor;
  const zone = period.timeZone ?? 'UTC';
  const format = instantFormatter(zone);
  const time = (ms: number | null) => (ms === null ? '' : format(ms));
  const { types, resolveStates, level } = alarmExportTexts;
  return [
    { kind: 'heading', text: t(s.chart) },
    {
      kind: 'chart',
      height: 200,
      series: thinSeries(data.points, CHART_POINTS),
      low: data.low,
      high: data.high,
      from: period.startTime,
      to: period.endTime,
      unit: data.unit,
      timeZone: zone,
    },
    { kind: 'heading', text: t(s.statistics) },
    {
      kind: 'facts',
      pairs: [
        [t(s.readingsCount), String(data.points.length)],
        [t(s.min), fixed(data.min, data.unit)],
        [t(s.max), fixed(data.max, data.unit)],
        [t(s.avg), fixed(data.avg, data.unit)],
        [t(s.mkt), data.isTemperature ? fixed(data.mkt, data.unit) : '-'],
        [t(s.outOfRange), t(s.minutes).replace('{n}', String(Math.round(data.outOfRangeMs / 60_000)))],
      ],
    },
    { kind: 'heading', text: t(s.excursions) },
    data.alarms.length === 0
      ? { kind: 'paragraph', text: t(s.none) }
      : {
          kind: 'table',
          columns: [
            { header: t(s.alarmTime), weight: 1.4 },
            { header: t(s.alarmType), weight: 1.1 },
            { header: t(s.level), weight: 0.6 },
            { header: t(s.content), weight: 2 },
            { header: t(s.state), weight: 0.9 },
            { header: t(s.resolver), weight: 0.9 },
            { header: t(s.resolveTime), weight: 1.4 },
            { header: t(s.cause), weight: 1.3 },
            { header: t(s.action), weight: 1.3 },
          ],
          rows: data.alarms.map((a) => [
            time(a.alarmTime),
            types[a.alarmType]?.[language] ?? a.alarmType,
            level[language].replace('{level}', String(a.level)),
            a.content[language] || a.content.en,
            resolveStates[a.resolveState]?.[language] ?? String(a.resolveState),
            a.resolver ?? '',
            time(a.resolveTime),
            a.cause ?? '',
            a.action ?? '',
          ]),
        },
  ];
}

/** The readings table at the period's step (the long part, printed after the signatures). */
export function sensorReadingsSections(
  data: SensorReportData,
  period: ReportPeriod,
  language: WireLanguage,
): PdfSection[] {
  const t = (text: Texts) => text[language];
  const s = reportTexts.sensor;
  const format = instantFormatter(period.timeZone ?? 'UTC');
  const interval = tableIntervalMinutes(
    period.interval,
    data.points.length,
    period.endTime - period.startTime,
    ReportIntervals,
  );
  const rows = sampleAtInterval(data.points, period.startTime, interval ? interval * 60_000 : null);
  const status = (v: number) =>
    data.high !== null && v > data.high
      ? t(s.tooHigh)
      : data.low !== null && v < data.low
        ? t(s.tooLow)
        : t(s.inRange);
  return [
    {
      kind: 'heading',
      text: interval ? t(s.readings).replace('{interval}', intervalText(interval)) : t(s.everyReading),
    },
    {
      kind: 'table',
      columns: [
        { header: t(s.time), weight: 2 },
        { header: `${t(s.value)} (${data.unit})`, weight: 1, align: 'right' },
        { header: t(s.status), weight: 1 },
      ],
      rows: rows.map(([ms, v]) => [format(ms), v.toFixed(2), status(v)]),
    },
  ];
}

/** The signature manifestations (21 CFR 11.50): who, when, and what the signature means. */
export function signatureSections(
  signatures: ReportSignature[],
  timeZone: string,
  language: WireLanguage,
): PdfSection[] {
  const t = (text: Texts) => text[language];
  const s = reportTexts.sensor;
  const format = instantFormatter(timeZone);
  return [
    { kind: 'heading', text: t(s.signatures) },
    signatures.length === 0
      ? { kind: 'paragraph', text: t(s.unsigned) }
      : {
          kind: 'table',
          columns: [{ header: t(s.signer) }, { header: t(s.signedAt) }, { header: t(s.meaning) }],
          rows: signatures.map((g) => [g.signedBy, format(g.signedAt), t(reportTexts.meanings[g.meaning])]),
        },
  ];
}

/** Period, zone, and generated at and by: the last lines of every report header. */
export function reportHeaderTail(
  period: ReportPeriod,
  context: SensorReportContext,
  language: WireLanguage,
): Array<[string, string]> {
  const s = reportTexts.sensor;
  const zone = period.timeZone ?? 'UTC';
  const format = instantFormatter(zone);
  return [
    [s.period[language], `${format(period.startTime)} ~ ${format(period.endTime)}`],
    [s.timeZone[language], zone],
    [s.generatedAt[language], format(context.generatedAt)],
    [s.generatedBy[language], context.generatedBy],
  ];
}

/** The report's document: what it prints, in the request's language (also what is fingerprinted). */
export function sensorReportDocument(
  data: SensorReportData,
  input: SensorReportRequest,
  language: WireLanguage,
  context: SensorReportContext,
): PdfReport {
  const s = reportTexts.sensor;
  const t = (text: Texts) => text[language];
  return {
    language,
    title: t(s.title),
    header: [
      [t(s.company), data.company],
      [t(s.department), data.department],
      [t(s.device), data.device],
      [t(s.serial), data.serial],
      [t(s.sensor), data.sensor],
      [t(s.range), rangeText(data)],
      ...reportHeaderTail(input, context, language),
    ],
    sections: [
      ...sensorSummarySections(data, input, language),
      ...signatureSections(context.signatures, input.timeZone ?? 'UTC', language),
      ...sensorReadingsSections(data, input, language),
    ],
  };
}

export interface GeneratedReport {
  bytes: Buffer;
  fileName: string;
  fingerprint: string;
}

/** What a report of readings is built from once the caller may take it (and has signed it). */
export interface ReportDraft {
  document: PdfReport;
  fileName: string;
}

/**
 * The one way a report of readings is issued (sensor and equipment reports): the export flag
 * first, then the signature password (the one signature step, modules/signature) when the report
 * is to be signed or the company's audit signature is on; then the caller's document, the PDF,
 * the stored file record (data centre, `verifyReport`) and the audit entry, in one transaction.
 */
export async function issueReport(
  db: Db,
  files: FileStore,
  who: Signer,
  actor: Actor,
  request: { kind: 'sensorReport' | 'equipmentReport'; input: ReportPeriod & Record<string, unknown> },
  draft: (context: SensorReportContext) => Promise<ReportDraft>,
): Promise<GeneratedReport> {
  const { kind, input } = request;
  const signer = await loadSigner(db, who);
  if (!signer.exportExcel) throw new AppError('EXPORT_NOT_ALLOWED');
  const signatures: ReportSignature[] = [];
  if (input.signMeaning || signer.signCheck) {
    await verifySignature(db, who, signer, input.signPassword);
    if (input.signMeaning)
      signatures.push({ signedBy: signer.name, signedAt: Date.now(), meaning: input.signMeaning });
  }
  const generatedAt = Date.now();
  const { document, fileName } = await draft({ generatedAt, generatedBy: signer.name, signatures });
  const pdf = await renderPdf(document);
  await db.transaction(async (tx) => {
    const file = await recordReportFile(tx, files, {
      companyId: actor.companyId,
      kind,
      fileName,
      format: 'pdf',
      bytes: pdf.bytes,
      fingerprint: pdf.fingerprint,
      generatedBy: who.userId,
      generatedByName: signer.name,
      generatedAt: new Date(generatedAt),
    });
    const { signPassword: _, ...query } = input;
    await recordAudit(tx, actor, {
      action: `report.${kind}`,
      targetType: 'report',
      targetId: file.id,
      after: { ...query, fileName, fingerprint: pdf.fingerprint, signatures },
    });
  });
  return { bytes: pdf.bytes, fileName, fingerprint: pdf.fingerprint };
}

/** `/api/report/sensorReport`: one sensor the caller may see (`scope`, as historyData). */
export async function generateSensorReport(
  db: Db,
  options: { files: FileStore; activationEnergyKj: number },
  who: Signer,
  actor: Actor,
  scope: SQL,
  input: SensorReportRequest,
  language: WireLanguage,
): Promise<GeneratedReport> {
  return issueReport(db, options.files, who, actor, { kind: 'sensorReport', input }, async (context) => {
    const data = await loadSensorReportData(db, scope, input, options.activationEnergyKj);
    const zone = input.timeZone ?? 'UTC';
    return {
      document: sensorReportDocument(data, input, language, context),
      fileName: `sensor-report-${data.serial}-${dayStamp(input.startTime, zone)}-${dayStamp(input.endTime, zone)}.pdf`,
    };
  });
}

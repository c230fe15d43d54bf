import {
  type AlarmChannel,
  type AvailabilityDevice,
  type AvailabilityRow,
  type ExportStatisticsQuery,
  NotificationOutcomes,
  type Statistics,
  type StatisticsChart,
  type WireLanguage,
} from '@coldchain/contract';
import type { Db } from '../../db/client';
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
import { recordExportPdf } from '../reports/report-files.service';
import { authorizeExport } from '../signature/signature.service';
import { loadStatistics } from './statistics.service';
import { statisticsTexts as T } from './statistics-texts';

type Row = (string | number)[];

/**
 * `/api/statistics/exportStatistics`: the figures of one chart as a table (the same figures the
 * page draws, for the same period, zone and department). Like every export it needs the member's
 * export permission and, while the company's audit signature is on, the signature password, and it
 * is written to the operation log.
 */
export async function exportStatistics(
  db: Db,
  actor: Actor,
  auth: Auth,
  input: ExportStatisticsQuery,
  language: WireLanguage,
  now = Date.now(),
): Promise<ExportFile> {
  const signature = await authorizeExport(
    db,
    { userId: actor.userId!, companyId: actor.companyId, ip: actor.ip },
    input.signPassword,
  );
  const { statistics, devices } = await loadStatistics(db, auth, input, now);
  const table = tableOf(input.chart, statistics, devices, language);
  if (!table) throw new AppError('NO_PERMISSION');
  const columns: ExportColumn<Row>[] = table.headers.map((header, i) => ({
    header,
    width: i === 0 ? 22 : 16,
    value: (row) => row[i] ?? '',
  }));
  const zone = input.timeZone;
  const file = await buildExportFile(
    input.format,
    T.charts[input.chart][language],
    columns,
    table.rows,
    `statistics-${input.chart}-${dayStamp(input.startTime, zone)}-${dayStamp(input.endTime - 1, zone)}`,
    language,
  );
  const { signPassword: _, ...query } = input;
  await db.transaction(async (tx) => {
    await recordAudit(tx, actor, {
      action: 'statistics.export',
      targetType: 'company',
      targetId: actor.companyId,
      after: { ...query, rows: file.rowCount, ...(signature ? { signature } : {}) },
    });
    await recordExportPdf(tx, actor, 'statistics.export', file);
  });
  return file;
}

/** The chart's table: headers and rows in the request's language; null without the right to it. */
function tableOf(
  chart: StatisticsChart,
  s: Statistics,
  devices: AvailabilityDevice[],
  language: WireLanguage,
): { headers: string[]; rows: Row[] } | null {
  const t = (entry: Record<WireLanguage, string>) => entry[language];
  const departmentName = (id: string | null) =>
    id === null ? t(T.noDepartment) : (s.departments.find((d) => d.id === id)?.name ?? `#${id}`);
  const bucketLabel = (b: number) => formatInstant(b, s.timeZone).slice(0, s.bucket === 'hour' ? 16 : 10);
  const timeTable = (series: { label: string; counts: number[] }[]) => ({
    headers: [t(s.bucket === 'hour' ? T.hour : T.day), ...series.map((x) => x.label), t(T.total)],
    rows: s.buckets.map((b, i) => {
      const counts = series.map((x) => x.counts[i] ?? 0);
      return [bucketLabel(b), ...counts, counts.reduce((a, n) => a + n, 0)];
    }),
  });
  switch (chart) {
    case 'alarmsByType':
      return s.alarms
        ? timeTable(s.alarms.byType.map((x) => ({ label: t(T.alarmTypes[x.key]), counts: x.counts })))
        : null;
    case 'alarmsByLevel':
      return s.alarms
        ? timeTable(
            s.alarms.byLevel.map((x) => ({
              label: t(T.level).replace('{n}', String(x.key)),
              counts: x.counts,
            })),
          )
        : null;
    case 'alarmsByDepartment':
      return s.alarms
        ? timeTable(s.alarms.byDepartment.map((x) => ({ label: departmentName(x.key), counts: x.counts })))
        : null;
    case 'resolveTime':
      if (!s.resolveTime) return null;
      return {
        headers: [T.department, T.resolved, T.open, T.median, T.p90, T.worst].map(t),
        rows: [...s.resolveTime.rows, s.resolveTime.overall].map((r, i, all) => [
          i === all.length - 1 ? t(T.allDepartments) : departmentName(r.departmentId),
          r.resolved,
          r.open,
          r.medianMinutes ?? '',
          r.p90Minutes ?? '',
          r.worstMinutes ?? '',
        ]),
      };
    case 'availability': {
      if (!s.availability) return null;
      const figures = (r: AvailabilityRow): Row => [
        r.devices,
        r.expectedHours,
        r.coveredHours,
        r.ratio === null ? '' : Math.round(r.ratio * 10_000) / 100,
      ];
      return {
        headers: [T.department, T.serial, T.device, T.devices, T.expected, T.received, T.availability].map(t),
        rows: [
          [t(T.allDepartments), '', '', ...figures(s.availability.overall)],
          ...s.availability.rows.map((r) => [departmentName(r.departmentId), '', '', ...figures(r)]),
          ...devices.map((d) => [departmentName(d.departmentId), d.serial, d.name, ...figures(d)]),
        ],
      };
    }
    case 'notifications':
      if (!s.notifications) return null;
      return {
        headers: [t(T.channel), ...NotificationOutcomes.map((o) => t(T.outcomes[o])), t(T.total)],
        rows: s.notifications.rows.map((r) => {
          const counts = NotificationOutcomes.map((o) => r.counts[o]);
          return [t(T.channels[r.channel]), ...counts, counts.reduce((a, n) => a + n, 0)];
        }),
      };
    case 'credits':
      return s.credits
        ? timeTable(
            s.credits.byChannel.map((x) => ({
              label: t(T.channels[x.key as AlarmChannel]),
              counts: x.counts,
            })),
          )
        : null;
  }
}

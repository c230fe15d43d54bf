import type { OperationFigures, WireLanguage } from '@coldchain/contract';
import { alarmExportTexts } from '../../i18n/catalogues/alarms';
import { operationReportTexts as T } from '../../i18n/catalogues/operation-reports';
import { formatInstant } from '../audit/export-file';
import type { PdfReport, PdfSection } from '../reports/pdf-writer';

/** `{name}` replaced by its value. */
function fill(text: string, params: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** 0.9734 -> "97.3%". */
export function percent(ratio: number | null, language: WireLanguage): string {
  return ratio === null ? T.notApplicable[language] : `${(Math.round(ratio * 1000) / 10).toFixed(1)}%`;
}

/** A duration in ms as "2 h 05 min" / "2 小时 05 分钟"; under an hour "45 min". */
export function formatDuration(ms: number | null, language: WireLanguage): string {
  if (ms === null) return T.notApplicable[language];
  const minutes = Math.round(ms / 60_000);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  const [hu, mu] = language === 'cn' ? [' 小时 ', ' 分钟'] : [' h ', ' min'];
  return h ? `${h}${hu}${String(m).padStart(2, '0')}${mu}` : `${m}${mu}`;
}

function alarmTypeName(type: string, language: WireLanguage): string {
  return alarmExportTexts.types[type]?.[language] ?? type;
}

/**
 * The operation report as the one PDF writer's document model (reports/pdf-writer.ts): the
 * header, then devices and availability, alarms by type and level, time to resolve, unresolved
 * alarms, excursion budgets and credits, in that order.
 */
export function operationReportModel(
  figures: OperationFigures,
  context: { taskName: string; generatedBy: string; language: WireLanguage },
): PdfReport {
  const l = context.language;
  const tz = figures.timeZone;
  const at = (ms: number) => formatInstant(ms, tz);
  const none: PdfSection = { kind: 'paragraph', text: T.none[l] };
  const sections: PdfSection[] = [
    { kind: 'heading', text: T.devices[l] },
    {
      kind: 'facts',
      pairs: [
        [T.deviceCount[l], String(figures.devices.total)],
        [T.onlineNow[l], String(figures.devices.online)],
        [T.availability[l], percent(figures.availability.ratio, l)],
      ],
    },
    {
      kind: 'paragraph',
      text: fill(T.availabilityNote[l], {
        covered: figures.availability.coveredHours,
        expected: figures.availability.expectedHours,
      }),
    },
  ];
  if (figures.availability.lowest.length) {
    sections.push({ kind: 'paragraph', text: T.lowestAvailability[l] });
    sections.push({
      kind: 'table',
      columns: [
        { header: T.device[l], weight: 2 },
        { header: T.serial[l], weight: 2 },
        { header: T.availability[l], align: 'right' },
      ],
      rows: figures.availability.lowest.map((d) => [d.name, d.serial, percent(d.ratio, l)]),
    });
  }

  sections.push({ kind: 'heading', text: T.alarms[l] });
  sections.push({ kind: 'facts', pairs: [[T.alarmTotal[l], String(figures.alarms.total)]] });
  const levels = [1, 2, 3].map((level) => fill(T.level[l], { level }));
  sections.push(
    figures.alarms.byType.length
      ? {
          kind: 'table',
          columns: [
            { header: T.alarmType[l], weight: 2 },
            ...levels.map((header) => ({ header, align: 'right' as const })),
            { header: T.total[l], align: 'right' },
          ],
          rows: [
            ...figures.alarms.byType.map((r) => [
              alarmTypeName(r.alarmType, l),
              String(r.level1),
              String(r.level2),
              String(r.level3),
              String(r.total),
            ]),
            [T.total[l], ...figures.alarms.byLevel.map((x) => String(x.count)), String(figures.alarms.total)],
          ],
        }
      : none,
  );

  sections.push({ kind: 'heading', text: T.resolution[l] });
  sections.push({
    kind: 'facts',
    pairs: [
      [T.resolved[l], String(figures.resolution.resolved)],
      [T.median[l], formatDuration(figures.resolution.medianMs, l)],
      [T.worst[l], formatDuration(figures.resolution.worstMs, l)],
    ],
  });

  sections.push({ kind: 'heading', text: T.unresolved[l] });
  sections.push({ kind: 'facts', pairs: [[T.unresolvedCount[l], String(figures.unresolved.count)]] });
  if (figures.unresolved.list.length) {
    sections.push({
      kind: 'table',
      columns: [
        { header: T.alarmTime[l], weight: 2 },
        { header: T.device[l], weight: 2 },
        { header: T.serial[l], weight: 2 },
        { header: T.alarmType[l], weight: 2 },
        { header: fill(T.level[l], { level: '' }).trim() },
      ],
      rows: figures.unresolved.list.map((a) => [
        at(a.alarmTime),
        a.deviceName,
        a.serial,
        alarmTypeName(a.alarmType, l),
        String(a.level),
      ]),
    });
    const more = figures.unresolved.count - figures.unresolved.list.length;
    if (more > 0) sections.push({ kind: 'paragraph', text: fill(T.moreNotListed[l], { n: more }) });
  }

  sections.push({ kind: 'heading', text: T.equipment[l] });
  sections.push(
    figures.equipment.length
      ? {
          kind: 'table',
          columns: [
            { header: T.equipmentName[l], weight: 2 },
            { header: T.serial[l], weight: 2 },
            { header: T.budget[l], align: 'right' },
            { header: T.used[l], align: 'right' },
            { header: T.usedShare[l], align: 'right' },
          ],
          rows: figures.equipment.map((e) => [
            e.name,
            e.serial,
            String(e.budgetMinutes),
            String(e.usedMinutes),
            percent(e.ratio, l),
          ]),
        }
      : none,
  );

  sections.push({ kind: 'heading', text: T.credits[l] });
  sections.push({ kind: 'facts', pairs: [[T.creditsSpent[l], String(figures.credits.spent)]] });
  if (figures.credits.byChannel.length) {
    sections.push({
      kind: 'table',
      columns: [
        { header: T.channel[l], weight: 2 },
        { header: T.creditsSpent[l], align: 'right' },
      ],
      rows: figures.credits.byChannel.map((c) => [c.channel || '-', String(c.spent)]),
    });
  }

  return {
    language: l,
    title: T.title[l],
    header: [
      [T.company[l], figures.companyName],
      [T.scope[l], figures.departmentName ?? T.wholeCompany[l]],
      [T.task[l], context.taskName],
      [T.period[l], `${at(figures.startTime)} - ${at(figures.endTime)}`],
      [T.timeZone[l], tz],
      [T.generatedAt[l], at(figures.generatedAt)],
      [T.generatedBy[l], context.generatedBy],
    ],
    sections,
  };
}

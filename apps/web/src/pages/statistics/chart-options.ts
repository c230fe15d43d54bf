import {
  NotificationOutcomes,
  type Statistics,
  type StatisticsBucket,
  type StatisticsDepartment,
} from '@coldchain/contract';
import dayjs from 'dayjs';
import type { EChartsCoreOption } from 'echarts/core';
import type { TFunction } from 'i18next';

const OUTCOME_COLORS = {
  delivered: '#52c41a',
  sent: '#1677ff',
  failed: '#ff4d4f',
  notSent: '#faad14',
  pending: '#bfbfbf',
} as const;

/** The axis label of a bucket: month-day, and the hour for hourly buckets. */
export function bucketLabel(bucket: StatisticsBucket, start: number): string {
  return dayjs(start).format(bucket === 'hour' ? 'MM-DD HH:00' : 'MM-DD');
}

/** A department's name from the answer's list; devices filed nowhere, or granted from elsewhere. */
export function departmentLabel(
  t: TFunction,
  departments: StatisticsDepartment[],
  id: string | null,
): string {
  if (id === null) return t('statistics.department.none');
  return departments.find((d) => d.id === id)?.name ?? t('statistics.department.other', { id });
}

const base = {
  animation: false,
  grid: { left: 56, right: 16, top: 56, bottom: 40 },
  legend: { top: 0, type: 'scroll' },
  tooltip: { trigger: 'axis' },
  yAxis: { type: 'value', minInterval: 1 },
} as const;

/** Stacked bars over the period's buckets, one series per key. */
export function timeSeriesOption(
  s: Statistics,
  series: { name: string; counts: number[]; color?: string }[],
): EChartsCoreOption {
  return {
    ...base,
    xAxis: { type: 'category', data: s.buckets.map((b) => bucketLabel(s.bucket, b)) },
    series: series.map((x) => ({
      type: 'bar',
      stack: 'total',
      name: x.name,
      data: x.counts,
      ...(x.color ? { itemStyle: { color: x.color } } : {}),
    })),
  };
}

/** A span of minutes as people say it: "25 min", "3 h 5 min", "2 d 4 h". */
export function formatMinutes(t: TFunction, minutes: number | null): string {
  if (minutes === null) return '-';
  const total = Math.round(minutes);
  if (total < 60) return t('statistics.duration.minutes', { m: total });
  if (total < 24 * 60) return t('statistics.duration.hours', { h: Math.floor(total / 60), m: total % 60 });
  return t('statistics.duration.days', { d: Math.floor(total / 1440), h: Math.floor((total % 1440) / 60) });
}

export function resolveTimeOption(t: TFunction, s: Statistics): EChartsCoreOption {
  const rows = s.resolveTime?.rows.filter((r) => r.resolved > 0) ?? [];
  const names = rows.map((r) => departmentLabel(t, s.departments, r.departmentId));
  // Past three hours the bars read better in hours.
  const inHours = rows.some((r) => (r.worstMinutes ?? 0) > 180);
  const scale = (v: number | null) => (v === null ? null : inHours ? Math.round((v / 60) * 10) / 10 : v);
  return {
    ...base,
    yAxis: { type: 'value', name: t(inHours ? 'statistics.chart.hours' : 'statistics.chart.minutes') },
    xAxis: { type: 'category', data: names, axisLabel: { interval: 0, hideOverlap: true } },
    series: [
      { type: 'bar', name: t('statistics.chart.median'), data: rows.map((r) => scale(r.medianMinutes)) },
      { type: 'bar', name: t('statistics.chart.p90'), data: rows.map((r) => scale(r.p90Minutes)) },
      { type: 'bar', name: t('statistics.chart.worst'), data: rows.map((r) => scale(r.worstMinutes)) },
    ],
  };
}

export function availabilityOption(t: TFunction, s: Statistics): EChartsCoreOption {
  const rows = s.availability?.rows.filter((r) => r.ratio !== null) ?? [];
  return {
    ...base,
    tooltip: { trigger: 'axis', valueFormatter: (v: number) => `${v}%` },
    yAxis: { type: 'value', max: 100, name: t('statistics.chart.availabilityShare') },
    xAxis: {
      type: 'category',
      data: rows.map((r) => departmentLabel(t, s.departments, r.departmentId)),
      axisLabel: { interval: 0, hideOverlap: true },
    },
    series: [
      {
        type: 'bar',
        name: t('statistics.chart.availabilityShare'),
        data: rows.map((r) => Math.round((r.ratio ?? 0) * 1000) / 10),
        itemStyle: { color: '#13c2c2' },
      },
    ],
  };
}

export function notificationsOption(t: TFunction, s: Statistics): EChartsCoreOption {
  const rows = s.notifications?.rows ?? [];
  return {
    ...base,
    xAxis: { type: 'category', data: rows.map((r) => t(`alarms.setting.channel.${r.channel}`)) },
    series: NotificationOutcomes.map((outcome) => ({
      type: 'bar',
      stack: 'total',
      name: t(`statistics.chart.outcome.${outcome}`),
      data: rows.map((r) => r.counts[outcome]),
      itemStyle: { color: OUTCOME_COLORS[outcome] },
    })),
  };
}

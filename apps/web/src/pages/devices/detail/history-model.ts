import type { HistoryData, HistoryDataRequest } from '@coldchain/contract';

/** Pure data shaping of the history chart, kept apart from ECharts so it can be tested in jsdom. */

export const RANGE_PRESETS = ['1h', '24h', '7d', '30d', '1y'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
export const PRESET_SPAN_MS: Record<RangePreset, number> = {
  '1h': HOUR,
  '24h': DAY,
  '7d': 7 * DAY,
  '30d': 30 * DAY,
  '1y': 365 * DAY,
};

export interface TimeWindow {
  start: number;
  end: number;
}

export function presetWindow(preset: RangePreset, now: number): TimeWindow {
  return { start: now - PRESET_SPAN_MS[preset], end: now };
}

/**
 * The part of `range` the dataZoom shows, from its start/end percentages. Rounded to whole
 * seconds so that tiny slider jitters do not make new query keys.
 */
export function zoomWindow(range: TimeWindow, startPercent: number, endPercent: number): TimeWindow {
  const clamp = (p: number) => Math.min(100, Math.max(0, p));
  const span = range.end - range.start;
  const at = (p: number) => Math.round((range.start + (span * clamp(p)) / 100) / 1000) * 1000;
  const start = at(Math.min(startPercent, endPercent));
  const end = Math.max(at(Math.max(startPercent, endPercent)), start + 1000);
  return { start, end };
}

/** The server sends min/max pairs per bucket; about one bucket per two pixels draws every peak. */
export const MIN_POINTS = 50;
export const MAX_POINTS = 4000;
export const FALLBACK_WIDTH = 800;

export function maxPointsFor(chartWidth: number): number {
  const width = chartWidth > 0 ? chartWidth : FALLBACK_WIDTH;
  return Math.min(MAX_POINTS, Math.max(MIN_POINTS, Math.round(width)));
}

export function historyRequest(sensorId: string, window: TimeWindow, chartWidth: number): HistoryDataRequest {
  return { sensorId, startTime: window.start, endTime: window.end, maxPoints: maxPointsFor(chartWidth) };
}

/**
 * Points for an ECharts line: `null` breaks the line across a gap longer than `gapFactor`
 * times the typical spacing, so an outage is not drawn as a straight ramp.
 */
export function toSeriesData(
  points: HistoryData['points'],
  gapFactor = 5,
): Array<[number, number] | [number, null]> {
  if (points.length < 3) return points.map(([ts, v]) => [ts, v]);
  const steps = points
    .slice(1)
    .map(([ts], i) => ts - (points[i]?.[0] ?? ts))
    .sort((a, b) => a - b);
  const typical = steps[Math.floor(steps.length / 2)] ?? 0;
  const out: Array<[number, number] | [number, null]> = [];
  points.forEach(([ts, v], i) => {
    const previous = points[i - 1];
    if (previous && typical > 0 && ts - previous[0] > typical * gapFactor) out.push([previous[0] + 1, null]);
    out.push([ts, v]);
  });
  return out;
}

import { describe, expect, it } from 'vitest';
import { historyRequest, maxPointsFor, presetWindow, toSeriesData, zoomWindow } from './history-model';

const NOW = Date.UTC(2025, 5, 1, 12, 0, 0);

describe('history chart data shaping', () => {
  it('turns a preset into a window ending now', () => {
    expect(presetWindow('1h', NOW)).toEqual({ start: NOW - 3_600_000, end: NOW });
    expect(presetWindow('7d', NOW).start).toBe(NOW - 7 * 86_400_000);
    expect(presetWindow('1y', NOW).start).toBe(NOW - 365 * 86_400_000);
  });

  it('maps the zoom percentages to the visible part of the range, in whole seconds', () => {
    const year = presetWindow('1y', NOW);
    const lastHour = zoomWindow(year, 100 - 100 / (365 * 24), 100);
    expect(lastHour.end).toBe(NOW);
    expect(Math.abs(lastHour.end - lastHour.start - 3_600_000)).toBeLessThan(1000);
    expect(zoomWindow(year, 0, 100)).toEqual(year);
    // Reversed or out-of-range handles still give a valid, non-empty window.
    const odd = zoomWindow(year, 120, -5);
    expect(odd).toEqual(year);
    const empty = zoomWindow(year, 50, 50);
    expect(empty.end - empty.start).toBe(1000);
  });

  it('asks for about one point per pixel of chart width, within bounds', () => {
    expect(maxPointsFor(912.4)).toBe(912);
    expect(maxPointsFor(0)).toBe(800);
    expect(maxPointsFor(10)).toBe(50);
    expect(maxPointsFor(10_000)).toBe(4000);
    expect(historyRequest('7', { start: 1, end: 2 }, 640)).toEqual({
      sensorId: '7',
      startTime: 1,
      endTime: 2,
      maxPoints: 640,
    });
  });

  it('keeps the points and breaks the line across an outage', () => {
    const step = 300_000;
    const points: [number, number][] = [0, 1, 2, 3, 20, 21].map((i) => [i * step, i]);
    const series = toSeriesData(points);
    expect(series.filter(([, v]) => v !== null)).toEqual(points);
    expect(series).toContainEqual([3 * step + 1, null]);
    expect(series).toHaveLength(points.length + 1);
    expect(toSeriesData([])).toEqual([]);
    expect(toSeriesData([[1, 2]])).toEqual([[1, 2]]);
  });
});

/**
 * The figures of a sensor report that are not SQL aggregates, as pure functions so tests can
 * check them against hand-computed values.
 */

/** A reading stands for at most this long (as equipment statistics count it): a gap is not time out of range. */
export const READING_HOLD_MS = 2 * 3_600_000;

/**
 * Milliseconds the series spent outside [low, high] within [.., end]: a reading outside holds until
 * the next reading, the period's end, or READING_HOLD_MS after it, whichever comes first.
 */
export function timeOutOfRangeMs(
  points: ReadonlyArray<readonly [number, number]>,
  low: number | null,
  high: number | null,
  end: number,
): number {
  let total = 0;
  for (let i = 0; i < points.length; i++) {
    const [ts, value] = points[i]!;
    const outside = (low !== null && value < low) || (high !== null && value > high);
    if (!outside) continue;
    const next = i + 1 < points.length ? points[i + 1]![0] : end;
    total += Math.max(0, Math.min(next, end, ts + READING_HOLD_MS) - ts);
  }
  return total;
}

/**
 * The readings table at a step of `intervalMs`: the first reading of each step, the steps counted
 * from the period's start. Every reading when the step is null.
 */
export function sampleAtInterval<T extends readonly [number, number]>(
  points: readonly T[],
  start: number,
  intervalMs: number | null,
): T[] {
  if (!intervalMs) return [...points];
  const out: T[] = [];
  let lastSlot = -1;
  for (const point of points) {
    const slot = Math.floor((point[0] - start) / intervalMs);
    if (slot === lastSlot) continue;
    lastSlot = slot;
    out.push(point);
  }
  return out;
}

/** Rows the readings table may have before a coarser interval is chosen for it. */
export const MAX_TABLE_ROWS = 10_000;

/**
 * The table's step: the one asked for, else none (every reading) when that fits in
 * MAX_TABLE_ROWS, else the smallest standard step that does.
 */
export function tableIntervalMinutes(
  asked: number | undefined,
  readingCount: number,
  periodMs: number,
  steps: readonly number[],
): number | null {
  if (asked) return asked;
  if (readingCount <= MAX_TABLE_ROWS) return null;
  return steps.find((m) => periodMs / (m * 60_000) <= MAX_TABLE_ROWS) ?? steps.at(-1)!;
}

/**
 * Half-open time ranges `[fromMs, toMs)` in epoch milliseconds: the start is included, the end is
 * not, so a lapse that ends at a renewal and a recovery that starts there do not overlap.
 */
export type TimeRange = [fromMs: number, toMs: number];

/** Sorted, with overlapping or touching ranges joined; empty ranges dropped. */
export function mergeRanges(ranges: readonly TimeRange[]): TimeRange[] {
  const sorted = ranges.filter(([from, to]) => to > from).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: TimeRange[] = [];
  for (const [from, to] of sorted) {
    const last = merged[merged.length - 1];
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  return merged;
}

/** What is left of `ranges` once every range of `cut` is taken out; sorted and merged. */
export function subtractRanges(ranges: readonly TimeRange[], cut: readonly TimeRange[]): TimeRange[] {
  const holes = mergeRanges(cut);
  const left: TimeRange[] = [];
  for (const [start, end] of mergeRanges(ranges)) {
    let from = start;
    for (const [holeFrom, holeTo] of holes) {
      if (holeTo <= from) continue;
      if (holeFrom >= end) break;
      if (holeFrom > from) left.push([from, holeFrom]);
      from = Math.max(from, holeTo);
      if (from >= end) break;
    }
    if (from < end) left.push([from, end]);
  }
  return left;
}

/** Whether `ms` falls in one of the sorted, merged `ranges` (binary search: exports are long). */
export function inRanges(ranges: readonly TimeRange[], ms: number): boolean {
  let low = 0;
  let high = ranges.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const [from, to] = ranges[mid]!;
    if (ms < from) high = mid - 1;
    else if (ms >= to) low = mid + 1;
    else return true;
  }
  return false;
}

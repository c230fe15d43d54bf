import { describe, expect, it } from 'vitest';
import { visibleSegments } from './history.service';

describe('visible segments', () => {
  const start = 1_000_000;
  const end = 2_000_000;

  it('is the whole range when nothing is hidden or the hidden ranges lie outside it', () => {
    expect(visibleSegments(start, end, [])).toEqual([[start, end]]);
    // Half-open: a range ending at the start hides nothing of it, one starting just after the end neither.
    expect(
      visibleSegments(start, end, [
        [0, start],
        [end + 1, end + 10],
      ]),
    ).toEqual([[start, end]]);
  });

  it('cuts hidden ranges touching or crossing the start and the end', () => {
    expect(visibleSegments(start, end, [[start, start + 10]])).toEqual([[start + 10, end]]);
    expect(visibleSegments(start, end, [[0, start + 1]])).toEqual([[start + 1, end]]);
    expect(visibleSegments(start, end, [[end, end + 10]])).toEqual([[start, end - 1]]);
    expect(visibleSegments(start, end, [[end - 5, end + 1]])).toEqual([[start, end - 6]]);
    expect(
      visibleSegments(start, end, [
        [start, start + 1],
        [end, end + 1],
      ]),
    ).toEqual([[start + 1, end - 1]]);
  });

  it('leaves closed segments between hidden ranges, and nothing when they cover it all', () => {
    expect(
      visibleSegments(start, end, [
        [start + 10, start + 20],
        [start + 30, start + 40],
      ]),
    ).toEqual([
      [start, start + 9],
      [start + 20, start + 29],
      [start + 40, end],
    ]);
    expect(visibleSegments(start, end, [[start, end + 1]])).toEqual([]);
    expect(visibleSegments(start, end, [[0, end + 100]])).toEqual([]);
    expect(
      visibleSegments(start, end, [
        [start, start + 500_000],
        [start + 500_000, end + 1],
      ]),
    ).toEqual([]);
    // A single-instant range: visible only if that millisecond is.
    expect(visibleSegments(start, start, [])).toEqual([[start, start]]);
    expect(visibleSegments(start, start, [[start, start + 1]])).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { clusterPoints, labelBox, scaleBar, visibleLabels } from './map-layout';

const id = (p: { id: string }) => p.id;

describe('map layout', () => {
  it('folds markers closer than the radius into one cluster at their mean, and keeps the far ones apart', () => {
    const clusters = clusterPoints(
      [
        { item: { id: 'a' }, left: 100, top: 100 },
        { item: { id: 'b' }, left: 110, top: 104 },
        { item: { id: 'c' }, left: 300, top: 100 },
      ],
      id,
    );
    expect(clusters.map((c) => c.items.map(id))).toEqual([['a', 'b'], ['c']]);
    expect(clusters[0]).toMatchObject({ key: 'a+b', left: 105, top: 102 });
  });

  it('draws a name only where it overlaps no name drawn before it, the selected one first', () => {
    const markers = [
      { item: { id: 'a' }, name: 'Vaccine fridge 1', left: 100, top: 100 },
      { item: { id: 'b' }, name: 'Vaccine fridge 2', left: 130, top: 100 },
      { item: { id: 'c' }, name: 'Cold room', left: 400, top: 100 },
    ];
    expect([...visibleLabels(markers, id, null)].sort()).toEqual(['a', 'c']);
    expect([...visibleLabels(markers, id, 'b')].sort()).toEqual(['b', 'c']);
  });

  it('sizes a Chinese name wider than a Latin one of the same length', () => {
    expect(labelBox('冷库一号', 0, 0).width).toBeGreaterThan(labelBox('abcd', 0, 0).width);
  });

  it('picks a round scale distance near 100 px', () => {
    // Zoom 12 at the equator: about 38 m a pixel, so 100 px is about 3.8 km -> 2 km.
    const bar = scaleBar(0, 12);
    expect(bar.metres).toBe(2000);
    expect(bar.pixels).toBeGreaterThan(40);
    expect(bar.pixels).toBeLessThan(110);
    expect(scaleBar(3.1, 18).metres).toBeLessThan(100);
  });
});

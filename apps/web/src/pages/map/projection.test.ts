import { describe, expect, it } from 'vitest';
import { fitView, panBy, project, TILE_SIZE, tilesFor, toScreen } from './projection';

describe('map projection (Web Mercator)', () => {
  it('puts null island in the middle and the date line at the edges', () => {
    expect(project(0, 0)).toEqual({ x: 0.5, y: 0.5 });
    expect(project(-180, 0).x).toBe(0);
    expect(project(180, 0).x).toBe(1);
    expect(project(0, 85.05112878).y).toBeCloseTo(0, 6);
    // North is up: a northern point has a smaller y.
    expect(project(101.69, 3.14).y).toBeLessThan(project(103.82, 1.35).y);
  });

  it('fits every point inside the view with its margin', () => {
    const points = [project(101.69, 3.14), project(103.82, 1.35), project(100.33, 5.41)];
    const view = fitView(points, 960, 560);
    for (const p of points) {
      const { left, top } = toScreen(p, view);
      expect(left).toBeGreaterThanOrEqual(48);
      expect(left).toBeLessThanOrEqual(960 - 48);
      expect(top).toBeGreaterThanOrEqual(48);
      expect(top).toBeLessThanOrEqual(560 - 48);
    }
    // One zoom level more would not fit.
    const closer = { ...view, zoom: view.zoom + 1 };
    const outside = points.some((p) => {
      const s = toScreen(p, closer);
      return s.left < 48 || s.left > 912 || s.top < 48 || s.top > 512;
    });
    expect(outside).toBe(true);
  });

  it('shows a single device at street level, centred', () => {
    const view = fitView([project(101.69, 3.14)], 960, 560);
    expect(view.zoom).toBe(12);
    expect(toScreen(project(101.69, 3.14), view)).toEqual({ left: 480, top: 280 });
  });

  it('pans by a drag', () => {
    const view = fitView([project(0, 0)], 800, 600);
    const moved = panBy(view, 100, -50);
    expect(toScreen(project(0, 0), moved)).toEqual({ left: 500, top: 250 });
  });

  it('covers the view with tiles from the template, none without one', () => {
    const view = { center: { x: 0.5, y: 0.5 }, zoom: 2, width: 512, height: 512 };
    expect(tilesFor(view, '')).toEqual([]);
    const tiles = tilesFor(view, 'https://{s}.tiles.example.org/{z}/{x}/{y}.png');
    expect(tiles).toHaveLength(4);
    expect(tiles.map((t) => t.url.replace(/^https:\/\/[abc]\./, ''))).toEqual([
      'tiles.example.org/2/1/1.png',
      'tiles.example.org/2/2/1.png',
      'tiles.example.org/2/1/2.png',
      'tiles.example.org/2/2/2.png',
    ]);
    expect(tiles[0]).toMatchObject({ left: 0, top: 0 });
    expect(tiles[3]).toMatchObject({ left: TILE_SIZE, top: TILE_SIZE });
    // Across the date line x wraps; above the pole nothing is asked for.
    const edge = tilesFor({ center: { x: 0, y: 0 }, zoom: 1, width: 256, height: 256 }, '{z}/{x}/{y}');
    expect(edge.map((t) => t.url)).toEqual(['1/1/0', '1/0/0']);
  });
});

/**
 * Web Mercator, the projection of every common tile server, so markers land on the same spot
 * with and without tiles. Coordinates are "world units": 0..1 across the whole map.
 */

export const TILE_SIZE = 256;
export const MIN_ZOOM = 1;
export const MAX_ZOOM = 18;
/** Mercator is undefined at the poles; tile servers stop here. */
const MAX_LAT = 85.05112878;

export interface WorldPoint {
  x: number;
  y: number;
}

export interface View {
  /** Centre of the view in world units. */
  center: WorldPoint;
  zoom: number;
  width: number;
  height: number;
}

export function project(lng: number, lat: number): WorldPoint {
  const clamped = Math.max(-MAX_LAT, Math.min(MAX_LAT, lat));
  const sin = Math.sin((clamped * Math.PI) / 180);
  return {
    x: (lng + 180) / 360,
    y: 0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI),
  };
}

const scaleOf = (zoom: number) => TILE_SIZE * 2 ** zoom;

/** Where a world point is drawn in the view, in pixels from the top left. */
export function toScreen(point: WorldPoint, view: View): { left: number; top: number } {
  const scale = scaleOf(view.zoom);
  return {
    left: (point.x - view.center.x) * scale + view.width / 2,
    top: (point.y - view.center.y) * scale + view.height / 2,
  };
}

/** The view that shows every point with a margin; one point is shown at street level. */
export function fitView(points: WorldPoint[], width: number, height: number, padding = 48): View {
  if (points.length === 0) return { center: { x: 0.5, y: 0.5 }, zoom: 2, width, height };
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const center = { x: (minX + maxX) / 2, y: (minY + maxY) / 2 };
  const spanX = maxX - minX;
  const spanY = maxY - minY;
  if (spanX === 0 && spanY === 0) return { center, zoom: 12, width, height };
  const fitX = spanX === 0 ? Infinity : (width - 2 * padding) / (spanX * TILE_SIZE);
  const fitY = spanY === 0 ? Infinity : (height - 2 * padding) / (spanY * TILE_SIZE);
  // Whole zoom levels, so tiles are drawn at their natural size.
  const zoom = Math.floor(Math.log2(Math.min(fitX, fitY)));
  return { center, zoom: clampZoom(zoom), width, height };
}

export function clampZoom(zoom: number): number {
  return Math.max(MIN_ZOOM, Math.min(MAX_ZOOM, zoom));
}

/** Moves the view by a drag of (dx, dy) screen pixels. */
export function panBy(view: View, dx: number, dy: number): View {
  const scale = scaleOf(view.zoom);
  return { ...view, center: { x: view.center.x - dx / scale, y: view.center.y - dy / scale } };
}

export interface Tile {
  key: string;
  url: string;
  left: number;
  top: number;
}

/**
 * The tiles covering the view for a template with `{z}`, `{x}`, `{y}` (and optionally `{s}`);
 * none without a template. x wraps around the date line; rows beyond the poles are skipped.
 */
export function tilesFor(view: View, template: string): Tile[] {
  if (!template) return [];
  const count = 2 ** view.zoom;
  const originX = view.center.x * count * TILE_SIZE - view.width / 2;
  const originY = view.center.y * count * TILE_SIZE - view.height / 2;
  const tiles: Tile[] = [];
  for (let ty = Math.floor(originY / TILE_SIZE); ty * TILE_SIZE < originY + view.height; ty++) {
    if (ty < 0 || ty >= count) continue;
    for (let tx = Math.floor(originX / TILE_SIZE); tx * TILE_SIZE < originX + view.width; tx++) {
      const wrapped = ((tx % count) + count) % count;
      const url = template
        .replaceAll('{z}', String(view.zoom))
        .replaceAll('{x}', String(wrapped))
        .replaceAll('{y}', String(ty))
        .replaceAll('{s}', 'abc'[Math.abs(tx + ty) % 3]!);
      tiles.push({ key: `${tx}:${ty}`, url, left: tx * TILE_SIZE - originX, top: ty * TILE_SIZE - originY });
    }
  }
  return tiles;
}

/**
 * Where markers and their names go on the drawn map, so that nearby devices stay readable at any
 * zoom (issue 20: devices a few metres apart drew on top of each other with overlapping names).
 * Pure functions over screen positions; MapCanvas draws the result.
 */

export interface ScreenPoint<T> {
  item: T;
  left: number;
  top: number;
}

/** Markers whose centres are closer than this (drawing pixels) are drawn as one cluster. */
export const CLUSTER_RADIUS = 28;

export interface Cluster<T> {
  key: string;
  left: number;
  top: number;
  items: T[];
}

/**
 * Greedy clustering: each point joins the first cluster whose centre is within `radius`, else
 * starts its own. Clusters sit at their members' mean; the input order decides ties, so the
 * same devices always cluster the same way.
 */
export function clusterPoints<T>(
  points: ScreenPoint<T>[],
  keyOf: (item: T) => string,
  radius = CLUSTER_RADIUS,
): Cluster<T>[] {
  const clusters: { items: T[]; lefts: number[]; tops: number[]; left: number; top: number }[] = [];
  for (const p of points) {
    const near = clusters.find((c) => Math.hypot(c.left - p.left, c.top - p.top) < radius);
    if (near) {
      near.items.push(p.item);
      near.lefts.push(p.left);
      near.tops.push(p.top);
      near.left = mean(near.lefts);
      near.top = mean(near.tops);
    } else {
      clusters.push({ items: [p.item], lefts: [p.left], tops: [p.top], left: p.left, top: p.top });
    }
  }
  return clusters.map((c) => ({
    key: c.items.map(keyOf).join('+'),
    left: c.left,
    top: c.top,
    items: c.items,
  }));
}

function mean(values: number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

export interface LabelBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A name's box above its marker, about 7 px per character at 13 px (CJK about 13 px). */
export function labelBox(name: string, left: number, top: number): LabelBox {
  const width = [...name].reduce((w, ch) => w + (ch.charCodeAt(0) > 0x2e80 ? 13 : 7), 0) + 6;
  const height = 16;
  return { left: left - width / 2, top: top - 14 - height + 4, width, height };
}

function overlaps(a: LabelBox, b: LabelBox): boolean {
  return (
    a.left < b.left + b.width &&
    b.left < a.left + a.width &&
    a.top < b.top + b.height &&
    b.top < a.top + a.height
  );
}

/**
 * Which names to draw: in order, each name whose box overlaps no name drawn before it. A
 * selected device comes first so its name always shows; the rest keep their names in the list
 * beside the map and as the marker's accessible name.
 */
export function visibleLabels<T>(
  markers: { item: T; name: string; left: number; top: number }[],
  keyOf: (item: T) => string,
  firstKey: string | null,
): Set<string> {
  const ordered = [...markers].sort(
    (a, b) => Number(keyOf(b.item) === firstKey) - Number(keyOf(a.item) === firstKey),
  );
  const placed: LabelBox[] = [];
  const shown = new Set<string>();
  for (const m of ordered) {
    const box = labelBox(m.name, m.left, m.top);
    if (placed.some((other) => overlaps(box, other))) continue;
    placed.push(box);
    shown.add(keyOf(m.item));
  }
  return shown;
}

/** Metres per drawing pixel at a latitude and zoom (Web Mercator, 256 px tiles). */
export function metresPerPixel(lat: number, zoom: number): number {
  return (40_075_016.686 * Math.cos((lat * Math.PI) / 180)) / (256 * 2 ** zoom);
}

/** A round distance (1, 2 or 5 times a power of ten metres) about `targetPx` pixels long. */
export function scaleBar(lat: number, zoom: number, targetPx = 100): { metres: number; pixels: number } {
  const perPixel = metresPerPixel(lat, zoom);
  const raw = perPixel * targetPx;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [5, 2, 1].map((f) => f * power).find((m) => m <= raw) ?? power;
  return { metres: step, pixels: step / perPixel };
}

import { project, toScreen, type View } from './projection';

/** Screen pixel -> longitude/latitude, for the graticule's extent. */
export function unproject(view: View, left: number, top: number) {
  const scale = 256 * 2 ** view.zoom;
  const x = view.center.x + (left - view.width / 2) / scale;
  const y = view.center.y + (top - view.height / 2) / scale;
  return { lng: x * 360 - 180, lat: (Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180) / Math.PI };
}

/** Graticule lines about every 100-200 px, so the plain map still shows scale and movement. */
export function gridLines(view: View) {
  const degreesPerPixel = 360 / (256 * 2 ** view.zoom);
  const step = 10 ** Math.ceil(Math.log10(degreesPerPixel * 100));
  const topLeft = unproject(view, 0, 0);
  const bottomRight = unproject(view, view.width, view.height);
  const digits = Math.max(0, -Math.floor(Math.log10(step)));
  const lines: {
    key: string;
    coords: { x1: number; y1: number; x2: number; y2: number };
    label: string;
    labelAt: { x: number; y: number };
  }[] = [];
  for (let lng = Math.ceil(topLeft.lng / step) * step; lng <= bottomRight.lng; lng += step) {
    const x = toScreen(project(lng, 0), view).left;
    lines.push({
      key: `v${lng.toFixed(6)}`,
      coords: { x1: x, y1: 0, x2: x, y2: view.height },
      label: `${Math.abs(lng).toFixed(digits)}°${lng < 0 ? 'W' : 'E'}`,
      labelAt: { x: x + 4, y: 14 },
    });
  }
  for (let lat = Math.ceil(bottomRight.lat / step) * step; lat <= topLeft.lat; lat += step) {
    const y = toScreen(project(0, lat), view).top;
    lines.push({
      key: `h${lat.toFixed(6)}`,
      coords: { x1: 0, y1: y, x2: view.width, y2: y },
      label: `${Math.abs(lat).toFixed(digits)}°${lat < 0 ? 'S' : 'N'}`,
      labelAt: { x: 4, y: y - 4 },
    });
  }
  return lines;
}

import { AimOutlined, MinusOutlined, PlusOutlined } from '@ant-design/icons';
import type { DeviceView } from '@coldchain/contract';
import { Button, Flex, Tooltip } from 'antd';
import { type PointerEvent, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { hasPosition } from './map-queries';
import { clampZoom, fitView, panBy, project, tilesFor, toScreen, type View } from './projection';

/** Drawing size; the SVG scales to its container's width. */
const WIDTH = 960;
const HEIGHT = 560;

/** Marker fill per device state (spec section 4), matching the state tags' colours. */
export const MARKER_COLORS: Record<number, string> = {
  1: '#52c41a',
  2: '#f5222d',
  3: '#fa8c16',
  4: '#8c8c8c',
  5: '#1677ff',
  6: '#434343',
};

interface Props {
  devices: DeviceView[];
  tileUrl: string;
  selectedId: string | null;
  /** Bumped by the page to centre on the selected device. */
  focus: { id: string; at: number } | null;
  onSelect: (device: DeviceView) => void;
}

/**
 * Devices with a GPS position as coloured markers with their names, on tiles from MAP_TILE_URL
 * when configured, otherwise on a plain Web Mercator grid (no network access is needed).
 */
export function MapCanvas({ devices, tileUrl, selectedId, focus, onSelect }: Props) {
  const { t } = useTranslation();
  const located = useMemo(() => devices.filter(hasPosition), [devices]);
  const fitted = useMemo(
    () =>
      fitView(
        located.map((d) => project(d.lng, d.lat)),
        WIDTH,
        HEIGHT,
      ),
    [located],
  );
  // null follows the devices (fit all); a drag, zoom or focus takes over until "show all".
  const [manual, setManual] = useState<View | null>(null);
  const [focused, setFocused] = useState<number | null>(null);
  if (focus && focus.at !== focused) {
    const target = located.find((d) => d.id === focus.id);
    setFocused(focus.at);
    if (target)
      setManual({
        ...(manual ?? fitted),
        center: project(target.lng, target.lat),
        zoom: Math.max((manual ?? fitted).zoom, 12),
      });
  }
  const view = manual ?? fitted;
  const drag = useRef<{ x: number; y: number; view: View; moved: boolean } | null>(null);
  const svg = useRef<SVGSVGElement>(null);

  const pixelsPerScreen = () => {
    const rect = svg.current?.getBoundingClientRect();
    return rect && rect.width > 0 ? WIDTH / rect.width : 1;
  };
  const onPointerDown = (e: PointerEvent<SVGSVGElement>) => {
    drag.current = { x: e.clientX, y: e.clientY, view, moved: false };
  };
  const onPointerMove = (e: PointerEvent<SVGSVGElement>) => {
    const start = drag.current;
    if (!start) return;
    const k = pixelsPerScreen();
    const dx = (e.clientX - start.x) * k;
    const dy = (e.clientY - start.y) * k;
    if (Math.abs(dx) + Math.abs(dy) < 3 && !start.moved) return;
    start.moved = true;
    setManual(panBy(start.view, dx, dy));
  };
  const endDrag = () => {
    drag.current = null;
  };
  const zoomBy = (step: number) => setManual({ ...view, zoom: clampZoom(view.zoom + step) });

  const tiles = tilesFor(view, tileUrl);
  // A light graticule gives orientation when there are no tiles.
  const grid = tileUrl ? [] : gridLines(view);

  return (
    <div style={{ position: 'relative' }}>
      <svg
        ref={svg}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width="100%"
        role="img"
        aria-label={t('map.mapMode.canvas')}
        data-testid="map-canvas"
        data-zoom={view.zoom}
        style={{
          background: '#eef3f8',
          touchAction: 'none',
          cursor: 'grab',
          display: 'block',
          borderRadius: 8,
        }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerLeave={endDrag}
      >
        {tiles.map((tile) => (
          <image
            key={tile.key}
            href={tile.url}
            x={tile.left}
            y={tile.top}
            width={256}
            height={256}
            data-testid="map-tile"
          />
        ))}
        {grid.map((line) => (
          <line key={line.key} {...line.coords} stroke="#d4dde8" strokeWidth={1} />
        ))}
        {located.map((d) => {
          const { left, top } = toScreen(project(d.lng, d.lat), view);
          if (left < -50 || left > WIDTH + 50 || top < -50 || top > HEIGHT + 50) return null;
          const selected = d.id === selectedId;
          return (
            // biome-ignore lint/a11y/useSemanticElements: an SVG group cannot be a <button>.
            <g
              key={d.id}
              transform={`translate(${left} ${top})`}
              data-testid={`map-marker-${d.id}`}
              data-state={d.state}
              role="button"
              tabIndex={0}
              aria-label={d.name}
              style={{ cursor: 'pointer' }}
              onClick={() => onSelect(d)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' || e.key === ' ') onSelect(d);
              }}
            >
              <circle
                r={selected ? 11 : 8}
                fill={MARKER_COLORS[d.state] ?? '#8c8c8c'}
                stroke={selected ? '#000' : '#fff'}
                strokeWidth={2}
              />
              <text
                y={-14}
                textAnchor="middle"
                fontSize={13}
                stroke="#fff"
                strokeWidth={3}
                paintOrder="stroke"
                fill="#1f1f1f"
              >
                {d.name}
              </text>
            </g>
          );
        })}
      </svg>
      <Flex vertical gap={4} style={{ position: 'absolute', top: 8, right: 8 }}>
        <Tooltip title={t('map.mapMode.zoomIn')}>
          <Button size="small" icon={<PlusOutlined />} onClick={() => zoomBy(1)} data-testid="map-zoom-in" />
        </Tooltip>
        <Tooltip title={t('map.mapMode.zoomOut')}>
          <Button
            size="small"
            icon={<MinusOutlined />}
            onClick={() => zoomBy(-1)}
            data-testid="map-zoom-out"
          />
        </Tooltip>
        <Tooltip title={t('map.mapMode.fit')}>
          <Button size="small" icon={<AimOutlined />} onClick={() => setManual(null)} data-testid="map-fit" />
        </Tooltip>
      </Flex>
    </div>
  );
}

/** Screen pixel -> longitude/latitude, for the graticule's extent. */
function unproject(view: View, left: number, top: number) {
  const scale = 256 * 2 ** view.zoom;
  const x = view.center.x + (left - view.width / 2) / scale;
  const y = view.center.y + (top - view.height / 2) / scale;
  return { lng: x * 360 - 180, lat: (Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180) / Math.PI };
}

/** Graticule lines about every 100-200 px, so the plain map still shows scale and movement. */
function gridLines(view: View) {
  const degreesPerPixel = 360 / (256 * 2 ** view.zoom);
  const step = 10 ** Math.ceil(Math.log10(degreesPerPixel * 100));
  const topLeft = unproject(view, 0, 0);
  const bottomRight = unproject(view, view.width, view.height);
  const lines: { key: string; coords: { x1: number; y1: number; x2: number; y2: number } }[] = [];
  for (let lng = Math.ceil(topLeft.lng / step) * step; lng <= bottomRight.lng; lng += step) {
    const x = toScreen(project(lng, 0), view).left;
    lines.push({ key: `v${lng.toFixed(6)}`, coords: { x1: x, y1: 0, x2: x, y2: view.height } });
  }
  for (let lat = Math.ceil(bottomRight.lat / step) * step; lat <= topLeft.lat; lat += step) {
    const y = toScreen(project(0, lat), view).top;
    lines.push({ key: `h${lat.toFixed(6)}`, coords: { x1: 0, y1: y, x2: view.width, y2: y } });
  }
  return lines;
}

import { AimOutlined, MinusOutlined, PlusOutlined } from '@ant-design/icons';
import { DeviceState, type DeviceView, type MapEquipmentView } from '@coldchain/contract';
import { Button, Flex, Tooltip } from 'antd';
import { type PointerEvent, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ClusterEquipmentBadge, EquipmentBadges } from './EquipmentBadges';
import { gridLines, unproject } from './map-background';
import { clusterPoints, scaleBar, visibleLabels } from './map-layout';
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
  /** Equipment drawn beside the monitor that measures it (map-equipment.ts `placeEquipment`). */
  equipmentByDevice?: Map<string, MapEquipmentView[]>;
  selectedEquipmentId?: string | null;
  onSelectEquipment?: (item: MapEquipmentView) => void;
  tileUrl: string;
  selectedId: string | null;
  /** Bumped by the page to centre on the selected device. */
  focus: { id: string; at: number } | null;
  onSelect: (device: DeviceView) => void;
}

/**
 * Devices with a GPS position as coloured markers with their names, on tiles from MAP_TILE_URL
 * when configured, otherwise on a plain Web Mercator background with degrees and a scale (no
 * network access is needed). Markers closer than a finger's width fold into a numbered cluster
 * that zooms in when opened, and names that would overlap are left to the list (map-layout.ts).
 */
export function MapCanvas({
  devices,
  equipmentByDevice,
  selectedEquipmentId = null,
  onSelectEquipment,
  tileUrl,
  selectedId,
  focus,
  onSelect,
}: Props) {
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
  // Without tiles (an offline site): a plain paper background with a graticule, its degrees and a
  // scale bar, so position and distance still read (issue 20: an empty grid).
  const grid = tileUrl ? [] : gridLines(view);
  const centre = unproject(view, view.width / 2, view.height / 2);
  const scale = scaleBar(centre.lat, view.zoom);

  // On screen, nearest first; the selected device is never folded into a cluster.
  const onScreen = located
    .map((d) => ({ item: d, ...toScreen(project(d.lng, d.lat), view) }))
    .filter((p) => p.left >= -50 && p.left <= WIDTH + 50 && p.top >= -50 && p.top <= HEIGHT + 50);
  const selectedPoint = onScreen.find((p) => p.item.id === selectedId) ?? null;
  const clusters = clusterPoints(
    onScreen.filter((p) => p !== selectedPoint),
    (d) => d.id,
  );
  const singles = [
    ...clusters
      .filter((c) => c.items.length === 1)
      .map((c) => ({ item: c.items[0]!, left: c.left, top: c.top })),
    ...(selectedPoint ? [selectedPoint] : []),
  ];
  const labelled = visibleLabels(
    singles.map((p) => ({ ...p, name: p.item.name })),
    (d) => d.id,
    selectedId,
  );

  /** A cluster opens up: the view fits its members, at least two zoom levels closer. */
  const openCluster = (members: DeviceView[]) => {
    const fitted = fitView(
      members.filter(hasPosition).map((d) => project(d.lng, d.lat)),
      WIDTH,
      HEIGHT,
    );
    setManual({ ...fitted, zoom: clampZoom(Math.max(fitted.zoom, view.zoom + 2)) });
  };

  return (
    <div style={{ position: 'relative' }}>
      {/* biome-ignore lint/a11y/useSemanticElements: an <svg> cannot be a <fieldset>; role group names the drawing that holds the marker buttons. */}
      <svg
        ref={svg}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width="100%"
        // A group, not an image: it holds the markers, which are buttons.
        role="group"
        aria-label={t('map.mapMode.canvas')}
        data-testid="map-canvas"
        data-zoom={view.zoom}
        style={{
          background: tileUrl ? '#eef3f8' : PAPER,
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
          <g key={line.key}>
            <line {...line.coords} stroke="#ddd6c6" strokeWidth={1} />
            <text {...line.labelAt} fontSize={11} fill="#5c5648" data-testid="map-grid-label">
              {line.label}
            </text>
          </g>
        ))}
        {!tileUrl && (
          <g transform={`translate(16 ${HEIGHT - 20})`} data-testid="map-scale">
            <rect x={-6} y={-18} width={scale.pixels + 12} height={26} rx={4} fill="#fff" opacity={0.85} />
            <line x1={0} y1={0} x2={scale.pixels} y2={0} stroke="#3d3a33" strokeWidth={2} />
            <line x1={0} y1={-5} x2={0} y2={0} stroke="#3d3a33" strokeWidth={2} />
            <line x1={scale.pixels} y1={-5} x2={scale.pixels} y2={0} stroke="#3d3a33" strokeWidth={2} />
            <text x={scale.pixels / 2} y={-5} textAnchor="middle" fontSize={11} fill="#3d3a33">
              {distanceText(scale.metres)}
            </text>
          </g>
        )}
        {clusters
          .filter((c) => c.items.length > 1)
          .map((c) => {
            const names = c.items.map((d) => d.name).join(', ');
            const equipmentCount = c.items.reduce(
              (n, d) => n + (equipmentByDevice?.get(d.id)?.length ?? 0),
              0,
            );
            return (
              <g key={c.key}>
                {/* biome-ignore lint/a11y/useSemanticElements: an SVG group cannot be a <button>. */}
                <g
                  transform={`translate(${c.left} ${c.top})`}
                  data-testid="map-cluster"
                  data-count={c.items.length}
                  data-members={c.items.map((d) => d.id).join(',')}
                  role="button"
                  tabIndex={0}
                  aria-label={t('map.mapMode.cluster', { count: c.items.length, names })}
                  style={{ cursor: 'pointer' }}
                  onClick={() => openCluster(c.items)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter' || e.key === ' ') openCluster(c.items);
                  }}
                >
                  <title>{names}</title>
                  <circle
                    r={15}
                    fill={MARKER_COLORS[worstState(c.items)] ?? '#8c8c8c'}
                    stroke="#fff"
                    strokeWidth={3}
                  />
                  <text y={4.5} textAnchor="middle" fontSize={13} fontWeight={600} fill="#fff">
                    {c.items.length}
                  </text>
                </g>
                {/* Beside the button, not in it: a button's visible text must be part of its name,
                  and the equipment count is not (the list beside the map names the equipment). */}
                <g transform={`translate(${c.left} ${c.top})`} pointerEvents="none">
                  <ClusterEquipmentBadge count={equipmentCount} />
                </g>
              </g>
            );
          })}
        {singles.map(({ item: d, left, top }) => {
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
              <title>{d.name}</title>
              <circle
                r={selected ? 11 : 8}
                fill={MARKER_COLORS[d.state] ?? '#8c8c8c'}
                stroke={selected ? '#000' : '#fff'}
                strokeWidth={2}
              />
              {labelled.has(d.id) && (
                <text
                  y={-14}
                  textAnchor="middle"
                  fontSize={13}
                  stroke="#fff"
                  strokeWidth={3}
                  paintOrder="stroke"
                  fill="#1f1f1f"
                  data-testid="map-label"
                >
                  {d.name}
                </text>
              )}
            </g>
          );
        })}
        {singles.map(({ item: d, left, top }) => (
          <EquipmentBadges
            key={`equipment-${d.id}`}
            items={equipmentByDevice?.get(d.id) ?? []}
            left={left}
            top={top}
            selectedId={selectedEquipmentId}
            onSelect={onSelectEquipment}
          />
        ))}
      </svg>
      <Flex vertical gap={4} style={{ position: 'absolute', top: 8, right: 8 }}>
        <Tooltip title={t('map.mapMode.zoomIn')}>
          <Button
            icon={<PlusOutlined />}
            onClick={() => zoomBy(1)}
            data-testid="map-zoom-in"
            aria-label={t('map.mapMode.zoomIn')}
          />
        </Tooltip>
        <Tooltip title={t('map.mapMode.zoomOut')}>
          <Button
            icon={<MinusOutlined />}
            onClick={() => zoomBy(-1)}
            data-testid="map-zoom-out"
            aria-label={t('map.mapMode.zoomOut')}
          />
        </Tooltip>
        <Tooltip title={t('map.mapMode.fit')}>
          <Button
            icon={<AimOutlined />}
            onClick={() => setManual(null)}
            data-testid="map-fit"
            aria-label={t('map.mapMode.fit')}
          />
        </Tooltip>
      </Flex>
    </div>
  );
}

/** The offline background: a light paper tone that any marker colour stands out on. */
const PAPER = '#f6f3ea';

/** Which colour a cluster takes: the most urgent state among its devices. */
const URGENCY = [
  DeviceState.Alarm,
  DeviceState.Abnormal,
  DeviceState.Offline,
  DeviceState.Service,
  DeviceState.Normal,
];
function worstState(devices: DeviceView[]): number {
  return URGENCY.find((state) => devices.some((d) => d.state === state)) ?? devices[0]!.state;
}

function distanceText(metres: number): string {
  return metres >= 1000 ? `${metres / 1000} km` : `${metres} m`;
}

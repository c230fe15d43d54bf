import type { DeliveryDetail } from '@coldchain/contract';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';

const SIZE = { width: 600, height: 220, pad: 24 };
/** One colour per monitor's track and marker, in the order of the detail's monitors. */
const TRACK_COLORS = ['#1677ff', '#722ed1', '#08979c', '#d46b08'];

interface Point {
  lng: number;
  lat: number;
}

const located = <T extends { lng: number | null; lat: number | null }>(p: T): p is T & Point =>
  p.lng !== null && p.lat !== null;

/**
 * Degrees to the drawing: longitude shrunk by the cosine of the middle latitude (so a route is
 * not stretched sideways), one scale for both axes, the whole centred in the box.
 */
function projection(points: Point[]) {
  const lats = points.map((p) => p.lat);
  const midLat = ((Math.min(...lats) + Math.max(...lats)) / 2) * (Math.PI / 180);
  const shrink = Math.max(Math.cos(midLat), 0.01);
  const xs = points.map((p) => p.lng * shrink);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...lats), Math.max(...lats)];
  const inner = { width: SIZE.width - 2 * SIZE.pad, height: SIZE.height - 2 * SIZE.pad };
  const scale = Math.min(
    inner.width / Math.max(maxX - minX, 1e-3),
    inner.height / Math.max(maxY - minY, 1e-3),
  );
  const left = SIZE.pad + (inner.width - (maxX - minX) * scale) / 2;
  const bottom = SIZE.height - SIZE.pad - (inner.height - (maxY - minY) * scale) / 2;
  return {
    x: (p: Point) => left + (p.lng * shrink - minX) * scale,
    y: (p: Point) => bottom - (p.lat - minY) * scale,
  };
}

/**
 * The trip on a plain map (issue 18: "the route on the map mode"), drawn in degrees like the map
 * mode without tiles: sender and receiver, each monitor's recorded track between departure and
 * arrival (the server sends nothing outside it) and, while the goods travel, where each monitor
 * is now. Without any recorded track, the straight line sender -> receiver stands in for the
 * route. Nothing is drawn when no point has a position.
 */
export function RouteSketch({ detail }: { detail: DeliveryDetail }) {
  const { t } = useTranslation();
  const places = [
    {
      key: 'sender',
      label: detail.sender.name,
      lng: detail.sender.lng,
      lat: detail.sender.lat,
      color: '#389e0d',
    },
    {
      key: 'receiver',
      label: detail.receiver.name,
      lng: detail.receiver.lng,
      lat: detail.receiver.lat,
      color: '#cf1322',
    },
  ].filter(located);
  const monitors = detail.monitors.map((m, i) => ({
    serial: m.serial,
    color: TRACK_COLORS[i % TRACK_COLORS.length]!,
    track: m.route ?? [],
    now: located(m) ? { lng: m.lng, lat: m.lat } : null,
  }));
  const tracks = monitors.filter((m) => m.track.length > 0);
  const all: Point[] = [...places, ...monitors.flatMap((m) => [...m.track, ...(m.now ? [m.now] : [])])];
  if (all.length === 0) return null;
  const { x, y } = projection(all);
  const sender = places.find((p) => p.key === 'sender');
  const receiver = places.find((p) => p.key === 'receiver');
  const straight = tracks.length === 0 && sender && receiver;
  return (
    <div>
      <svg
        viewBox={`0 0 ${SIZE.width} ${SIZE.height}`}
        width="100%"
        role="img"
        aria-label={t('logistics.delivery.route')}
        style={{ maxWidth: SIZE.width, display: 'block', background: '#f0f5ff' }}
        data-testid="delivery-route"
      >
        {straight && (
          <line
            x1={x(sender)}
            y1={y(sender)}
            x2={x(receiver)}
            y2={y(receiver)}
            stroke="#8c8c8c"
            strokeDasharray="6 4"
            data-testid="delivery-straight-route"
          />
        )}
        {tracks.map((m) => (
          <polyline
            key={`track-${m.serial}`}
            points={m.track.map((p) => `${x(p).toFixed(1)},${y(p).toFixed(1)}`).join(' ')}
            fill="none"
            stroke={m.color}
            strokeWidth={2.5}
            strokeLinejoin="round"
            strokeLinecap="round"
            data-testid={`delivery-track-${m.serial}`}
          />
        ))}
        {places.map((p) => (
          <g key={p.key}>
            <circle cx={x(p)} cy={y(p)} r={6} fill={p.color} />
            <text x={x(p) + 8} y={y(p) + 4} fontSize={12}>
              {p.label}
            </text>
          </g>
        ))}
        {monitors.map(
          (m) =>
            m.now && (
              <g key={`now-${m.serial}`} data-testid={`delivery-position-${m.serial}`}>
                <title>{t('logistics.delivery.currentPosition', { serial: m.serial })}</title>
                <circle cx={x(m.now)} cy={y(m.now)} r={9} fill="#fff" stroke={m.color} strokeWidth={2} />
                <circle cx={x(m.now)} cy={y(m.now)} r={5} fill={m.color} />
                <text x={x(m.now) + 11} y={y(m.now) + 4} fontSize={12}>
                  {m.serial}
                </text>
              </g>
            ),
        )}
      </svg>
      {(tracks.length > 0 || straight) && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t(tracks.length > 0 ? 'logistics.delivery.trackLegend' : 'logistics.delivery.straightLegend')}
        </Typography.Text>
      )}
    </div>
  );
}

import type { DeliveryDetail } from '@coldchain/contract';
import { useTranslation } from 'react-i18next';

const SIZE = { width: 600, height: 220, pad: 24 };

/**
 * The trip on a plain map: sender and receiver, the straight route between them and each logger
 * where it last reported (issue 18: "the route on the map mode"). Drawn in degrees, like the map
 * mode without tiles; positions are only known while the goods travel (the server sends none
 * after arrival). Nothing is drawn when no point has a position.
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
    ...detail.monitors.map((m) => ({
      key: m.deviceId,
      label: m.serial,
      lng: m.lng,
      lat: m.lat,
      color: '#1677ff',
    })),
  ].filter((p): p is typeof p & { lng: number; lat: number } => p.lng !== null && p.lat !== null);
  if (places.length === 0) return null;
  const lngs = places.map((p) => p.lng);
  const lats = places.map((p) => p.lat);
  const span = Math.max(Math.max(...lngs) - Math.min(...lngs), Math.max(...lats) - Math.min(...lats), 0.01);
  const x = (lng: number) => SIZE.pad + ((lng - Math.min(...lngs)) / span) * (SIZE.width - 2 * SIZE.pad);
  const y = (lat: number) =>
    SIZE.height - SIZE.pad - ((lat - Math.min(...lats)) / span) * (SIZE.height - 2 * SIZE.pad);
  const sender = places.find((p) => p.key === 'sender');
  const receiver = places.find((p) => p.key === 'receiver');
  return (
    <svg
      viewBox={`0 0 ${SIZE.width} ${SIZE.height}`}
      width="100%"
      role="img"
      aria-label={t('logistics.delivery.route')}
      style={{ maxWidth: SIZE.width, display: 'block', background: '#f0f5ff' }}
      data-testid="delivery-route"
    >
      {sender && receiver && (
        <line
          x1={x(sender.lng)}
          y1={y(sender.lat)}
          x2={x(receiver.lng)}
          y2={y(receiver.lat)}
          stroke="#8c8c8c"
          strokeDasharray="6 4"
        />
      )}
      {places.map((p) => (
        <g key={p.key}>
          <circle cx={x(p.lng)} cy={y(p.lat)} r={6} fill={p.color} />
          <text x={x(p.lng) + 8} y={y(p.lat) + 4} fontSize={12}>
            {p.label}
          </text>
        </g>
      ))}
    </svg>
  );
}

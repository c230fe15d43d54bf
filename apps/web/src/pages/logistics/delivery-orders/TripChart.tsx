import type { DeliverySensorSeries } from '@coldchain/contract';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../devices/format';

const WIDTH = 600;
const HEIGHT = 160;
const PAD = { left: 36, right: 8, top: 8, bottom: 20 };

/**
 * One sensor's readings within the trip's window as a plain SVG line, the allowed range as dashed
 * red lines: light enough for the public receipt page on a phone, where the console's chart
 * library would be a large download for one small chart.
 */
export function TripChart({
  serial,
  sensor,
  low,
  high,
}: {
  serial: string;
  sensor: DeliverySensorSeries;
  low: number | null;
  high: number | null;
}) {
  const { t } = useTranslation();
  const points = sensor.points;
  const title = t('logistics.delivery.chartOf', { serial, channel: sensor.channel, unit: sensor.unit });
  if (points.length === 0) return null;
  const values = [
    ...points.map(([, v]) => v),
    ...(low !== null ? [low] : []),
    ...(high !== null ? [high] : []),
  ];
  const vMin = Math.min(...values) - 1;
  const vMax = Math.max(...values) + 1;
  const t0 = points[0]![0];
  const t1 = Math.max(points.at(-1)![0], t0 + 1);
  const x = (ts: number) => PAD.left + ((ts - t0) / (t1 - t0)) * (WIDTH - PAD.left - PAD.right);
  const y = (v: number) => PAD.top + (1 - (v - vMin) / (vMax - vMin)) * (HEIGHT - PAD.top - PAD.bottom);
  const line = points.map(([ts, v]) => `${x(ts).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const limit = (v: number | null) =>
    v === null ? null : (
      <g>
        <line
          x1={PAD.left}
          x2={WIDTH - PAD.right}
          y1={y(v)}
          y2={y(v)}
          stroke="#cf1322"
          strokeDasharray="4 3"
        />
        <text x={2} y={y(v) + 3} fontSize={10} fill="#cf1322">
          {v}
        </text>
      </g>
    );
  return (
    <figure style={{ margin: '8px 0' }}>
      <figcaption style={{ fontSize: 12 }}>{title}</figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width="100%"
        role="img"
        aria-label={title}
        style={{ maxWidth: WIDTH, display: 'block' }}
      >
        <rect
          x={PAD.left}
          y={PAD.top}
          width={WIDTH - PAD.left - PAD.right}
          height={HEIGHT - PAD.top - PAD.bottom}
          fill="#fafafa"
        />
        {limit(low)}
        {limit(high)}
        <polyline points={line} fill="none" stroke="#1677ff" strokeWidth={1.5} />
        <text x={PAD.left} y={HEIGHT - 4} fontSize={10}>
          {formatTime(t0)}
        </text>
        <text x={WIDTH - PAD.right} y={HEIGHT - 4} fontSize={10} textAnchor="end">
          {formatTime(t1)}
        </text>
      </svg>
    </figure>
  );
}

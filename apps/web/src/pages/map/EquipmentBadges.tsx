import type { MapEquipmentView } from '@coldchain/contract';
import { useTranslation } from 'react-i18next';

/** Equipment squares (not circles: they are not monitors); grey while their alarms are paused. */
export const EQUIPMENT_COLOR = '#722ed1';
export const EQUIPMENT_PAUSED_COLOR = '#bfbfbf';
/** Squares drawn beside one monitor before the rest fold into "+n". */
const EQUIPMENT_PER_MARKER = 3;

/**
 * The equipment a monitor measures, as small squares to the right of its marker (issue 14: "shown
 * on the map mode beside the monitors"); each opens the equipment's card.
 */
export function EquipmentBadges({
  items,
  left,
  top,
  selectedId,
  onSelect,
}: {
  items: MapEquipmentView[];
  left: number;
  top: number;
  selectedId: string | null;
  onSelect?: (item: MapEquipmentView) => void;
}) {
  const { t } = useTranslation();
  if (items.length === 0) return null;
  const drawn = items.slice(0, EQUIPMENT_PER_MARKER);
  return (
    <g transform={`translate(${left} ${top})`}>
      {drawn.map((item, i) => {
        const selected = item.id === selectedId;
        const label = t(item.alarmsPaused ? 'map.equipment.markerPaused' : 'map.equipment.marker', {
          name: item.name,
        });
        return (
          // biome-ignore lint/a11y/useSemanticElements: an SVG group cannot be a <button>.
          <g
            key={item.id}
            transform={`translate(${14 + i * 14} -5)`}
            data-testid={`map-equipment-marker-${item.id}`}
            data-paused={item.alarmsPaused ? 'true' : 'false'}
            role="button"
            tabIndex={0}
            aria-label={label}
            style={{ cursor: 'pointer' }}
            onClick={() => onSelect?.(item)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' || e.key === ' ') onSelect?.(item);
            }}
          >
            <title>{label}</title>
            <rect
              width={11}
              height={11}
              rx={2}
              fill={item.alarmsPaused ? EQUIPMENT_PAUSED_COLOR : EQUIPMENT_COLOR}
              stroke={selected ? '#000' : '#fff'}
              strokeWidth={selected ? 2 : 1.5}
            />
          </g>
        );
      })}
      {items.length > drawn.length && (
        <text x={14 + drawn.length * 14} y={5} fontSize={11} fill="#1f1f1f" data-testid="map-equipment-more">
          +{items.length - drawn.length}
        </text>
      )}
    </g>
  );
}

/** A cluster's equipment, counted on a square at its corner: opening the cluster shows them. */
export function ClusterEquipmentBadge({ count }: { count: number }) {
  if (count === 0) return null;
  return (
    <g transform="translate(9 -19)" data-testid="map-cluster-equipment" data-count={count}>
      <rect width={14} height={12} rx={2} fill={EQUIPMENT_COLOR} stroke="#fff" strokeWidth={1.5} />
      <text x={7} y={9.5} textAnchor="middle" fontSize={9} fontWeight={600} fill="#fff">
        {count}
      </text>
    </g>
  );
}

import type { DeviceView, MapEquipmentView } from '@coldchain/contract';
import { useQuery } from '@tanstack/react-query';
import { request } from '../../api/request';
import { hasPosition } from './map-queries';

/** Equipment changes rarely; its pause follows the monitors' pace all the same. */
const REFRESH_MS = 60_000;

export interface MapEquipment {
  list: MapEquipmentView[];
  total: number;
}

export const fetchMapEquipment = () => request<MapEquipment>('/api/device/mapEquipment');

/** Only for callers holding `equipment:view`: the call refuses anyone else. */
export function useMapEquipment(enabled: boolean) {
  return useQuery({
    queryKey: ['equipment', 'map'],
    queryFn: fetchMapEquipment,
    enabled,
    refetchInterval: REFRESH_MS,
  });
}

export interface EquipmentPlacement {
  /** Monitor id to the equipment drawn beside its marker. */
  byDevice: Map<string, MapEquipmentView[]>;
  /** Equipment id to the monitor it is drawn beside. */
  besideOf: Map<string, DeviceView>;
  /** Equipment no located monitor measures: listed, not drawn. */
  unplaced: MapEquipmentView[];
}

/**
 * Equipment has a region and an address but no coordinates (docs/decisions.md "Equipment on the
 * map"): it is drawn beside the first monitor measuring it that has a GPS position, so a cold
 * room with two loggers appears once; without such a monitor it is only listed.
 */
export function placeEquipment(equipment: MapEquipmentView[], devices: DeviceView[]): EquipmentPlacement {
  const located = new Map(devices.filter(hasPosition).map((d) => [d.id, d]));
  const byDevice = new Map<string, MapEquipmentView[]>();
  const besideOf = new Map<string, DeviceView>();
  const unplaced: MapEquipmentView[] = [];
  for (const item of equipment) {
    const device = item.deviceIds.map((id) => located.get(id)).find((d) => d !== undefined);
    if (!device) {
      unplaced.push(item);
      continue;
    }
    besideOf.set(item.id, device);
    byDevice.set(device.id, [...(byDevice.get(device.id) ?? []), item]);
  }
  return { byDevice, besideOf, unplaced };
}

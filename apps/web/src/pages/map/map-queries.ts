import type { DeviceView } from '@coldchain/contract';
import { useQuery } from '@tanstack/react-query';
import { pageDevices } from '../devices/queries';

/** The largest page the device list call allows (contract PageDevicesRequest). */
const PAGE_SIZE = 200;
/** Enough for any one company's fleet on one screen; beyond it the page says it is cut. */
export const MAP_DEVICE_LIMIT = 2000;
/** States change with readings; the markers follow at the pace of the device list. */
const REFRESH_MS = 60_000;

export interface MapDevices {
  list: DeviceView[];
  total: number;
}

/** Every device the caller may see, page by page, for the markers. */
export async function fetchAllDevices(): Promise<MapDevices> {
  const list: DeviceView[] = [];
  let total = 0;
  for (let pageNum = 1; list.length < MAP_DEVICE_LIMIT; pageNum++) {
    const page = await pageDevices({ pageNum, pageSize: PAGE_SIZE });
    total = page.total;
    list.push(...page.list);
    if (page.list.length < PAGE_SIZE || list.length >= total) break;
  }
  return { list: list.slice(0, MAP_DEVICE_LIMIT), total };
}

export function useMapDevices() {
  return useQuery({
    queryKey: ['devices', 'map'],
    queryFn: fetchAllDevices,
    refetchInterval: REFRESH_MS,
  });
}

export const hasPosition = (d: DeviceView): d is DeviceView & { lat: number; lng: number } =>
  typeof d.lat === 'number' && typeof d.lng === 'number';

/** Spec section 8: a region without a detailed address locates the device only to its district. */
export const districtOnly = (d: DeviceView) => d.region.trim() !== '' && d.address.trim() === '';

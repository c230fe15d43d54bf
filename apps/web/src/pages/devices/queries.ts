import type {
  AddDeviceRequest,
  DeviceView,
  EditDeviceRequest,
  EditSensorRequest,
  HistoryData,
  HistoryDataRequest,
  PageDevicesRequest,
} from '@coldchain/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../../api/request';

/** Device calls of docs/API.md, all through the one request wrapper. */

export interface DevicePage {
  list: DeviceView[];
  total: number;
  pageNum: number;
  pageSize: number;
}

/** State number ('1'..'6') -> device count. */
export type StateCounts = Record<string, number>;

export const pageDevices = (body: PageDevicesRequest) => request<DevicePage>('/api/device/pageDevices', body);
export const countDevicesByState = () => request<StateCounts>('/api/device/countGroupByState');
export const addDevice = (body: AddDeviceRequest) =>
  request<{ id: string; deviceKey: string }>('/api/device/addDevice', body);
export const fetchDeviceDetail = (id: string) => request<DeviceView>('/api/device/deviceDetail', { id });
export const resetDeviceKey = (id: string) =>
  request<{ deviceKey: string }>('/api/device/resetDeviceKey', { id });
export const fetchHistoryData = (body: HistoryDataRequest) =>
  request<HistoryData>('/api/device/historyData', body);
/** Answers the whole device again, so the detail shows the channel's new state at once. */
export const editSensor = (body: EditSensorRequest) => request<DeviceView>('/api/device/editSensor', body);

export const DeviceQueryKey = {
  all: ['devices'],
  page: (body: PageDevicesRequest) => ['devices', 'page', body],
  counts: ['devices', 'counts'],
  detail: (id: string) => ['devices', 'detail', id],
  history: (body: HistoryDataRequest) => ['devices', 'history', body],
} as const;

/** Readings arrive every minute; the detail page and its sensor cards follow them at this pace. */
export const DETAIL_REFRESH_MS = 30_000;

export function useDevicePage(body: PageDevicesRequest) {
  return useQuery({
    queryKey: DeviceQueryKey.page(body),
    queryFn: () => pageDevices(body),
    // Keeps the rows on screen while the next page or filter loads, so the table does not flash.
    placeholderData: keepPreviousData,
  });
}

export function useStateCounts(enabled = true) {
  return useQuery({ queryKey: DeviceQueryKey.counts, queryFn: countDevicesByState, enabled });
}

export function useDeviceDetail(id: string | null) {
  return useQuery({
    queryKey: DeviceQueryKey.detail(id ?? ''),
    queryFn: () => fetchDeviceDetail(id ?? ''),
    enabled: !!id,
    refetchInterval: DETAIL_REFRESH_MS,
  });
}

export function useHistoryData(body: HistoryDataRequest | null) {
  return useQuery({
    queryKey: DeviceQueryKey.history(body ?? { sensorId: '', startTime: 0, endTime: 0 }),
    queryFn: () => fetchHistoryData(body as HistoryDataRequest),
    enabled: !!body,
    // While a zoom loads its detail, the coarser series stays drawn.
    placeholderData: keepPreviousData,
  });
}

export function useAddDevice() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: addDevice,
    onSuccess: () => client.invalidateQueries({ queryKey: DeviceQueryKey.all }),
  });
}

export const editDevice = (body: EditDeviceRequest) => request<DeviceView>('/api/device/editDevice', body);

/** Saves a monitor's settings; the list, counts, detail and the grouping view show them at once. */
export function useEditDevice() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: editDevice,
    onSuccess: async (saved) => {
      client.setQueryData(DeviceQueryKey.detail(saved.id), saved);
      await Promise.all([
        client.invalidateQueries({ queryKey: DeviceQueryKey.all }),
        client.invalidateQueries({ queryKey: ['groups'] }),
      ]);
    },
  });
}

export function useResetDeviceKey() {
  return useMutation({ mutationFn: resetDeviceKey });
}

/** Saves a channel's name, remarks and on/off switch (spec sections 3-4). */
export function useEditSensor() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: editSensor,
    onSuccess: async (saved) => {
      client.setQueryData(DeviceQueryKey.detail(saved.id), saved);
      await client.invalidateQueries({ queryKey: DeviceQueryKey.all });
    },
  });
}

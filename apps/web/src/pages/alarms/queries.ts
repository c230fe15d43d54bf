import type {
  AlarmRecordView,
  AlarmSettingListRequest,
  AlarmSettingView,
  PageAlarmsRequest,
  ResolveAlarmRequest,
  SaveAlarmSettingRequest,
} from '@coldchain/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../../api/request';

/** Alarm calls of docs/API.md, all through the one request wrapper. */

export interface PageOf<T> {
  list: T[];
  total: number;
  pageNum: number;
  pageSize: number;
}

/** One delivery of an alarm notification, when the detail carries them. */
export interface AlarmDelivery {
  id?: string;
  channel?: string;
  recipient?: string;
  status?: string;
  createdAt?: number;
  sentAt?: number | null;
}

/** The detail as docs/API.md lists it; `resolverName` and `notifications` are shown when present. */
export type AlarmDetail = AlarmRecordView & {
  resolverName?: string | null;
  notifications?: AlarmDelivery[];
};

export const pageAlarms = (body: PageAlarmsRequest) =>
  request<PageOf<AlarmRecordView & { resolverName?: string | null }>>('/api/alarm/pageAlarms', body);
export const fetchAlarmDetail = (id: string) => request<AlarmDetail>('/api/alarm/alarmDetail', { id });
export const resolveAlarm = (body: ResolveAlarmRequest) =>
  request<AlarmRecordView>('/api/alarm/resolveAlarm', body);
export const listAlarmSettings = (body: AlarmSettingListRequest) =>
  request<PageOf<AlarmSettingView>>('/api/deviceAlarmRule/alarmList', body);
export const saveAlarmSetting = (body: SaveAlarmSettingRequest) =>
  request<{ id: string }>('/api/deviceAlarmRule/saveAlarmSetting', body);
export const deleteAlarmSetting = (id: string) =>
  request<null>('/api/deviceAlarmRule/deleteAlarmSetting', { id });

/** Everything under ['alarms'] is refreshed when a live alarm arrives. */
export const AlarmQueryKey = {
  all: ['alarms'],
  page: (body: PageAlarmsRequest) => ['alarms', 'page', body],
  detail: (id: string) => ['alarms', 'detail', id],
  settings: (body: AlarmSettingListRequest) => ['alarms', 'settings', body],
} as const;

export function useAlarmPage(body: PageAlarmsRequest) {
  return useQuery({
    queryKey: AlarmQueryKey.page(body),
    queryFn: () => pageAlarms(body),
    placeholderData: keepPreviousData,
  });
}

export function useAlarmDetail(id: string | null) {
  return useQuery({
    queryKey: AlarmQueryKey.detail(id ?? ''),
    queryFn: () => fetchAlarmDetail(id ?? ''),
    enabled: !!id,
  });
}

export function useResolveAlarm() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: resolveAlarm,
    onSuccess: () => client.invalidateQueries({ queryKey: AlarmQueryKey.all }),
  });
}

export function useAlarmSettings(body: AlarmSettingListRequest | null) {
  return useQuery({
    queryKey: AlarmQueryKey.settings(body ?? { pageNum: 1, pageSize: 50 }),
    queryFn: () => listAlarmSettings(body as AlarmSettingListRequest),
    enabled: !!body,
  });
}

export function useSaveAlarmSetting() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveAlarmSetting,
    onSuccess: () => client.invalidateQueries({ queryKey: ['alarms', 'settings'] }),
  });
}

export function useDeleteAlarmSetting() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteAlarmSetting,
    onSuccess: () => client.invalidateQueries({ queryKey: ['alarms', 'settings'] }),
  });
}

import type {
  AlarmDetailView,
  AlarmRecordView,
  AlarmSettingListRequest,
  AlarmSettingView,
  BatchSaveAlarmSettingRequest,
  ExportAlarmsRequest,
  MemberOption,
  PageAlarmsRequest,
  ResolveAlarmRequest,
  SaveAlarmSettingRequest,
} from '@coldchain/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FileResponse, request } from '../../api/request';

/** Alarm calls of docs/API.md, all through the one request wrapper. */

export interface PageOf<T> {
  list: T[];
  total: number;
  pageNum: number;
  pageSize: number;
}

/** One message of an alarm and its delivery (`/api/alarm/alarmNotifications`, docs/API.md). */
export interface AlarmDelivery {
  id: string;
  userId: string;
  userName: string;
  channel: string;
  sequence: number;
  /** Masked by the server. */
  recipient: string;
  status: string;
  statusText: string;
  attempts: number;
  lastError: string | null;
  createdAt: number;
  sentAt: number | null;
}

export type AlarmDetail = AlarmDetailView;

export const pageAlarms = (body: PageAlarmsRequest) =>
  request<PageOf<AlarmRecordView>>('/api/alarm/pageAlarms', body);
export const fetchAlarmDetail = (id: string) => request<AlarmDetail>('/api/alarm/alarmDetail', { id });
export const fetchAlarmNotifications = (id: string) =>
  request<AlarmDelivery[]>('/api/alarm/alarmNotifications', { id });
/** People in the caller's scope, for the notifier picker. */
export const fetchMemberOptions = () => request<MemberOption[]>('/api/personnel/memberOptions');
export const resolveAlarm = (body: ResolveAlarmRequest) =>
  request<AlarmRecordView>('/api/alarm/resolveAlarm', body);
export const listAlarmSettings = (body: AlarmSettingListRequest) =>
  request<PageOf<AlarmSettingView>>('/api/deviceAlarmRule/alarmList', body);
export const saveAlarmSetting = (body: SaveAlarmSettingRequest) =>
  request<{ id: string }>('/api/deviceAlarmRule/saveAlarmSetting', body);
export const batchSaveAlarmSetting = (body: BatchSaveAlarmSettingRequest) =>
  request<{ ids: string[]; count: number }>('/api/deviceAlarmRule/batchSaveAlarmSetting', body);
/** The file itself (xlsx, csv or pdf); refusals come as envelopes and are shown by the wrapper. */
export const exportAlarms = (body: ExportAlarmsRequest) =>
  request<FileResponse>('/api/alarm/exportAlarms', body);
export const deleteAlarmSetting = (id: string) =>
  request<null>('/api/deviceAlarmRule/deleteAlarmSetting', { id });

/** Everything under ['alarms'] is refreshed when a live alarm arrives. */
export const AlarmQueryKey = {
  all: ['alarms'],
  page: (body: PageAlarmsRequest) => ['alarms', 'page', body],
  detail: (id: string) => ['alarms', 'detail', id],
  notifications: (id: string) => ['alarms', 'notifications', id],
  settings: (body: AlarmSettingListRequest) => ['alarms', 'settings', body],
} as const;

export function useAlarmPage(body: PageAlarmsRequest) {
  return useQuery({
    queryKey: AlarmQueryKey.page(body),
    queryFn: () => pageAlarms(body),
    placeholderData: keepPreviousData,
  });
}

/** How often an open alarm's detail is read again: its latest reading and whether it has ended. */
export const OPEN_ALARM_REFRESH_MS = 30_000;

export function useAlarmDetail(id: string | null) {
  return useQuery({
    queryKey: AlarmQueryKey.detail(id ?? ''),
    queryFn: () => fetchAlarmDetail(id ?? ''),
    enabled: !!id,
    // Live pushes announce new alarms, not their end: an open one is polled so "why it is still
    // open" follows the readings and disappears once the alarm ends.
    refetchInterval: (query) =>
      query.state.data && query.state.data.endTime === null ? OPEN_ALARM_REFRESH_MS : false,
  });
}

/** Refreshed with every alarm query (live pushes, resolving), since deliveries progress. */
export function useAlarmNotifications(id: string | null) {
  return useQuery({
    queryKey: AlarmQueryKey.notifications(id ?? ''),
    queryFn: () => fetchAlarmNotifications(id ?? ''),
    enabled: !!id,
  });
}

export function useMemberOptions(enabled: boolean) {
  return useQuery({
    queryKey: ['personnel', 'memberOptions'],
    queryFn: fetchMemberOptions,
    enabled,
    staleTime: 60_000,
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

export function useBatchSaveAlarmSetting() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: batchSaveAlarmSetting,
    onSuccess: () => client.invalidateQueries({ queryKey: ['alarms', 'settings'] }),
  });
}

export function useExportAlarms() {
  return useMutation({ mutationFn: exportAlarms });
}

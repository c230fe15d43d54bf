import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FileResponse, request } from '../../api/request';
import type {
  AddRecordRequest,
  Equipment,
  EquipmentItem,
  EquipmentRecord,
  EquipmentStats,
  EquipmentType,
  Page,
  PageEquipmentRequest,
  PatrolPlan,
  PatrolRound,
  RecordKind,
  SaveEquipmentRequest,
  SaveTypeRequest,
  SensorOption,
  StatPeriod,
} from './types';

/** Every equipment call of the console (docs/API.md "Equipment"). */
export const EQUIPMENT_PATHS = {
  saveType: '/api/equipmentType/saveType',
  pageTypes: '/api/equipmentType/pageTypes',
  deleteType: '/api/equipmentType/deleteType',
  save: '/api/equipment/saveEquipment',
  page: '/api/equipment/pageEquipment',
  detail: '/api/equipment/equipmentDetail',
  sensorOptions: '/api/equipment/sensorOptions',
  batchTransfer: '/api/equipment/batchTransfer',
  // Not in docs/API.md yet: the console's assumption for the list's and the timeline's exports.
  export: '/api/equipment/exportEquipment',
  exportRecords: '/api/equipment/exportRecords',
  addRecord: '/api/equipment/addRecord',
  pageRecords: '/api/equipment/pageRecords',
  stats: '/api/equipment/equipmentStats',
  savePatrolPlan: '/api/equipment/savePatrolPlan',
  pagePatrolPlans: '/api/equipment/pagePatrolPlans',
  pagePatrolRounds: '/api/equipment/pagePatrolRounds',
  deletePatrolPlan: '/api/equipment/deletePatrolPlan',
  upload: '/api/file/upload',
} as const;

export const EquipmentKey = {
  all: ['equipment'],
  types: (body: object) => ['equipment', 'types', body],
  page: (body: PageEquipmentRequest) => ['equipment', 'page', body],
  detail: (id: string) => ['equipment', 'detail', id],
  records: (id: string) => ['equipment', 'records', id],
  stats: (body: object) => ['equipment', 'stats', body],
  sensorOptions: ['equipment', 'sensorOptions'],
  plans: (body: object) => ['equipment', 'plans', body],
  rounds: (planId: string) => ['equipment', 'rounds', planId],
} as const;

/** Enough for every type of a company in one select (types are few: fridge, freezer, cold room...). */
const ALL_TYPES = { pageNum: 1, pageSize: 200 };

export function useEquipmentTypes(body: { pageNum: number; pageSize: number; keyword?: string } = ALL_TYPES) {
  return useQuery({
    queryKey: EquipmentKey.types(body),
    queryFn: () => request<Page<EquipmentType>>(EQUIPMENT_PATHS.pageTypes, body),
    placeholderData: keepPreviousData,
  });
}

export function useEquipmentPage(body: PageEquipmentRequest) {
  return useQuery({
    queryKey: EquipmentKey.page(body),
    queryFn: () => request<Page<EquipmentItem>>(EQUIPMENT_PATHS.page, body),
    placeholderData: keepPreviousData,
  });
}

export function useEquipmentDetail(id: string | null) {
  return useQuery({
    queryKey: EquipmentKey.detail(id ?? ''),
    queryFn: () => request<Equipment>(EQUIPMENT_PATHS.detail, { id }),
    enabled: !!id,
  });
}

/** The whole lifecycle of one piece of equipment for the timeline, newest first. */
export function useEquipmentRecords(equipmentId: string, kind?: RecordKind) {
  const body = { equipmentId, pageNum: 1, pageSize: 200, ...(kind ? { kind } : {}) };
  return useQuery({
    queryKey: [...EquipmentKey.records(equipmentId), kind ?? 'all'],
    queryFn: () => request<Page<EquipmentRecord>>(EQUIPMENT_PATHS.pageRecords, body),
  });
}

export interface StatsRequest {
  id: string;
  period: StatPeriod;
  startTime?: number;
  endTime?: number;
}

export function useEquipmentStats(body: StatsRequest | null) {
  return useQuery({
    queryKey: EquipmentKey.stats(body ?? {}),
    queryFn: () => request<EquipmentStats>(EQUIPMENT_PATHS.stats, body),
    enabled: !!body,
    placeholderData: keepPreviousData,
  });
}

export function useSensorOptions(enabled: boolean) {
  return useQuery({
    queryKey: EquipmentKey.sensorOptions,
    queryFn: () => request<SensorOption[]>(EQUIPMENT_PATHS.sensorOptions),
    enabled,
  });
}

export function usePatrolPlans(body: { pageNum: number; pageSize: number; equipmentId?: string }) {
  return useQuery({
    queryKey: EquipmentKey.plans(body),
    queryFn: () => request<Page<PatrolPlan>>(EQUIPMENT_PATHS.pagePatrolPlans, body),
    placeholderData: keepPreviousData,
  });
}

/** The last rounds of one plan (due, done, missed), newest first. */
export function usePatrolRounds(planId: string | null) {
  return useQuery({
    queryKey: EquipmentKey.rounds(planId ?? ''),
    queryFn: () =>
      request<Page<PatrolRound>>(EQUIPMENT_PATHS.pagePatrolRounds, { planId, pageNum: 1, pageSize: 50 }),
    enabled: !!planId,
  });
}

/** A change to any equipment refreshes every equipment screen (list, detail, timeline, patrols). */
function useEquipmentMutation<Body, Answer>(path: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Body) => request<Answer>(path, body),
    onSuccess: () => client.invalidateQueries({ queryKey: EquipmentKey.all }),
  });
}

export const useSaveType = () =>
  useEquipmentMutation<SaveTypeRequest, { id: string; affectedEquipment?: number }>(EQUIPMENT_PATHS.saveType);
export const useDeleteType = () => useEquipmentMutation<{ id: string }, null>(EQUIPMENT_PATHS.deleteType);
export const useSaveEquipment = () =>
  useEquipmentMutation<SaveEquipmentRequest, { id: string; serial: string }>(EQUIPMENT_PATHS.save);
export const useBatchTransfer = () =>
  useEquipmentMutation<{ ids: string[]; toDepartmentId: string; remarks?: string }, { count: number }>(
    EQUIPMENT_PATHS.batchTransfer,
  );
export const useAddRecord = () =>
  useEquipmentMutation<AddRecordRequest, { id: string }>(EQUIPMENT_PATHS.addRecord);
export interface SavePatrolPlanRequest {
  id?: string;
  name: string;
  equipmentId?: string;
  groupId?: string;
  intervalHours: number;
  startTime?: number;
  enabled?: boolean;
}
export const useSavePatrolPlan = () =>
  useEquipmentMutation<SavePatrolPlanRequest, { id: string }>(EQUIPMENT_PATHS.savePatrolPlan);
export const useDeletePatrolPlan = () =>
  useEquipmentMutation<{ id: string }, null>(EQUIPMENT_PATHS.deletePatrolPlan);

/** Exports answer a raw file (docs/API.md conventions). */
export function useExport<Body>(path: string) {
  return useMutation({ mutationFn: (body: Body) => request<FileResponse>(path, body) });
}

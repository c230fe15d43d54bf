import type {
  OperationFigures,
  OperationRunStatus,
  OperationRunView,
  OperationTaskView,
  Page,
  SaveOperationTaskRequest,
} from '@coldchain/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FileResponse, request } from '../../api/request';
import { saveFile } from '../audit/queries';

/** The operation report calls (docs/api/operation-reports.md). */
export const OPERATION_PATHS = {
  saveTask: '/api/operationReport/saveTask',
  pageTasks: '/api/operationReport/pageTasks',
  deleteTask: '/api/operationReport/deleteTask',
  runTask: '/api/operationReport/runTask',
  pageRuns: '/api/operationReport/pageRuns',
  runFigures: '/api/operationReport/runFigures',
  downloadRun: '/api/operationReport/downloadRun',
  memberOptions: '/api/personnel/memberOptions',
} as const;

export const OPERATION_REPORT_PATH = '/monitoring/operationReport';
export const TASK_MANAGE_PATH = '/monitoring/operationReport/taskManage';

const OperationKey = {
  all: ['operationReports'],
  tasks: (body: object) => ['operationReports', 'tasks', body],
  runs: (body: object) => ['operationReports', 'runs', body],
  figures: (id: string) => ['operationReports', 'figures', id],
} as const;

/** What the task form sends (the server's defaults fill the lists left out). */
export type OperationTaskInput = Omit<SaveOperationTaskRequest, 'notifierIds' | 'emails' | 'startHour'> & {
  notifierIds: string[];
  emails: string[];
  startHour: number;
};

export function useOperationTasks(body: { pageNum: number; pageSize: number }) {
  return useQuery({
    queryKey: OperationKey.tasks(body),
    queryFn: () => request<Page<OperationTaskView>>(OPERATION_PATHS.pageTasks, body),
    placeholderData: keepPreviousData,
  });
}

/** Runs, newest first; refreshed every 2 s while one is queued or running. */
export function useOperationRuns(body: {
  pageNum: number;
  pageSize: number;
  taskId?: string;
  status?: OperationRunStatus;
}) {
  return useQuery({
    queryKey: OperationKey.runs(body),
    queryFn: () => request<Page<OperationRunView>>(OPERATION_PATHS.pageRuns, body),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.list.some((r) => r.status === 'queued' || r.status === 'running') ? 2000 : false,
  });
}

export function useRunFigures(id: string | null) {
  return useQuery({
    queryKey: OperationKey.figures(id ?? ''),
    queryFn: () =>
      request<{ taskName: string; figures: OperationFigures }>(OPERATION_PATHS.runFigures, { id }),
    enabled: id !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

function useOperationMutation<Body, Answer>(path: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Body) => request<Answer>(path, body),
    onSuccess: () => client.invalidateQueries({ queryKey: OperationKey.all }),
  });
}

export const useSaveOperationTask = () =>
  useOperationMutation<OperationTaskInput, { id: string }>(OPERATION_PATHS.saveTask);
export const useRunOperationTask = () =>
  useOperationMutation<{ id: string }, { runId: string }>(OPERATION_PATHS.runTask);
export const useDeleteOperationTask = () =>
  useOperationMutation<{ id: string }, null>(OPERATION_PATHS.deleteTask);

/** The run's PDF, saved under the server's file name. */
export function useDownloadRun() {
  return useMutation({
    mutationFn: (id: string) => request<FileResponse>(OPERATION_PATHS.downloadRun, { id }),
    onSuccess: (file) => saveFile(file, 'operation-report.pdf'),
  });
}

export function useMemberOptions(enabled: boolean) {
  return useQuery({
    queryKey: ['operationReports', 'members'],
    queryFn: () => request<{ id: string; name: string }[]>(OPERATION_PATHS.memberOptions),
    enabled,
    staleTime: 60_000,
  });
}

/** The browser's zone: periods and the report's times follow it. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

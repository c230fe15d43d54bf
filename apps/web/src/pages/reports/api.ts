import type {
  Page,
  PageReportFilesRequest,
  ReportFileView,
  ReportRunView,
  ReportTaskView,
  SaveReportTaskRequest,
  VerifyReportAnswer,
} from '@coldchain/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FileResponse, request } from '../../api/request';

/** The backup-task and data-centre calls of the console (docs/API.md "Reports", docs/API.md "Data centre"). */
export const REPORT_PATHS = {
  saveTask: '/api/report/saveTask',
  pageTasks: '/api/report/pageTasks',
  runTask: '/api/report/runTask',
  pageRuns: '/api/report/pageRuns',
  downloadRun: '/api/report/downloadRun',
  deleteTask: '/api/report/deleteTask',
  pageFiles: '/api/dataCenter/pageFiles',
  downloadFile: '/api/dataCenter/downloadFile',
  verifyReport: '/api/report/verifyReport',
  memberOptions: '/api/personnel/memberOptions',
  pageDevices: '/api/device/pageDevices',
  pageEquipment: '/api/equipment/pageEquipment',
} as const;

export const ReportKey = {
  all: ['reports'],
  tasks: (body: object) => ['reports', 'tasks', body],
  runs: (body: object) => ['reports', 'runs', body],
  files: (body: object) => ['reports', 'files', body],
} as const;

/** A saved task as the form sends it (the server's defaults fill the lists left out). */
export type TaskInput = Omit<
  SaveReportTaskRequest,
  'deviceIds' | 'equipmentIds' | 'recipientIds' | 'emails'
> & {
  deviceIds: string[];
  equipmentIds: string[];
  recipientIds: string[];
  emails: string[];
};

export function useReportTasks(body: { pageNum: number; pageSize: number }) {
  return useQuery({
    queryKey: ReportKey.tasks(body),
    queryFn: () => request<Page<ReportTaskView>>(REPORT_PATHS.pageTasks, body),
    placeholderData: keepPreviousData,
  });
}

/** Runs of one task or of all; refreshed while one is queued or running. */
export function useReportRuns(body: { pageNum: number; pageSize: number; taskId?: string }) {
  return useQuery({
    queryKey: ReportKey.runs(body),
    queryFn: () => request<Page<ReportRunView>>(REPORT_PATHS.pageRuns, body),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.list.some((r) => r.status === 'queued' || r.status === 'running') ? 2000 : false,
  });
}

function useReportMutation<Body, Answer>(path: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Body) => request<Answer>(path, body),
    onSuccess: () => client.invalidateQueries({ queryKey: ReportKey.all }),
  });
}

export const useSaveTask = () => useReportMutation<TaskInput, { id: string }>(REPORT_PATHS.saveTask);
export const useRunTask = () => useReportMutation<{ id: string }, { runId: string }>(REPORT_PATHS.runTask);
export const useDeleteTask = () => useReportMutation<{ id: string }, null>(REPORT_PATHS.deleteTask);

export function useReportFiles(body: PageReportFilesRequest) {
  return useQuery({
    queryKey: ReportKey.files(body),
    queryFn: () => request<Page<ReportFileView>>(REPORT_PATHS.pageFiles, body),
    placeholderData: keepPreviousData,
  });
}

export function useVerifyReport() {
  return useMutation({
    mutationFn: (sha256: string) => request<VerifyReportAnswer>(REPORT_PATHS.verifyReport, { sha256 }),
  });
}

/** A file call answers the raw file (request.ts hands it over as a FileResponse). */
export function useDownload(path: string) {
  return useMutation({
    mutationFn: (id: string) => request<FileResponse>(path, { id }),
    onSuccess: (file) => saveFile(file),
  });
}

/** Hands a downloaded file to the browser under the server's file name. */
export function saveFile(file: FileResponse): void {
  const url = URL.createObjectURL(file.blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = file.filename || 'report';
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export interface Option {
  value: string;
  label: string;
}

/** Picker options of a searchable list call (devices, equipment): the first page matching the words. */
export function useSearchOptions(
  path: string,
  keyword: string,
  enabled: boolean,
  labelOf: (row: { id: string; name: string; serial: string }) => string,
) {
  return useQuery({
    queryKey: ['reports', 'options', path, keyword],
    queryFn: async () => {
      const page = await request<Page<{ id: string; name: string; serial: string }>>(path, {
        pageNum: 1,
        pageSize: 50,
        ...(keyword ? { keyword } : {}),
      });
      return page.list.map((row) => ({ value: String(row.id), label: labelOf(row) }));
    },
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

export function useMemberOptions(enabled: boolean) {
  return useQuery({
    queryKey: ['reports', 'members'],
    queryFn: () => request<{ id: string; name: string }[]>(REPORT_PATHS.memberOptions),
    enabled,
    staleTime: 60_000,
  });
}

import type {
  ChainVerification,
  ExportLoginLogRequest,
  ExportOperationLogRequest,
  LoginLogEntry,
  MemberOption,
  OperationLogEntry,
  PageLoginLogRequest,
  PageOperationLogRequest,
} from '@coldchain/contract';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { type FileResponse, request } from '../../api/request';

/** Audit trail calls of docs/API.md, all through the one request wrapper. */

export interface PageOf<T> {
  list: T[];
  total: number;
  pageNum: number;
  pageSize: number;
}

export const AUDIT_PATHS = {
  pageOwnLogins: '/api/userLoginLog/pageUserLog',
  exportOwnLogins: '/api/userLoginLog/exportUserLog',
  pageLogins: '/api/userLoginLog/auditPageUserLog',
  exportLogins: '/api/userLoginLog/auditExportUserLog',
  pageOperations: '/api/audit/pageOperationLog',
  exportOperations: '/api/audit/exportOperationLog',
  verifyChain: '/api/audit/verifyChain',
} as const;

/** `all`: everyone in the company (audit variant); `mine`: the caller's own logins. */
export type LoginScope = 'all' | 'mine';

export function useLoginLogPage(scope: LoginScope, body: PageLoginLogRequest) {
  return useQuery({
    queryKey: ['audit', 'logins', scope, body],
    queryFn: () =>
      request<PageOf<LoginLogEntry>>(
        scope === 'all' ? AUDIT_PATHS.pageLogins : AUDIT_PATHS.pageOwnLogins,
        body,
      ),
    placeholderData: keepPreviousData,
  });
}

export function useOperationLogPage(body: PageOperationLogRequest) {
  return useQuery({
    queryKey: ['audit', 'operations', body],
    queryFn: () => request<PageOf<OperationLogEntry>>(AUDIT_PATHS.pageOperations, body),
    placeholderData: keepPreviousData,
  });
}

export function useExportLogins(scope: LoginScope) {
  return useMutation({
    mutationFn: (body: ExportLoginLogRequest) =>
      request<FileResponse>(scope === 'all' ? AUDIT_PATHS.exportLogins : AUDIT_PATHS.exportOwnLogins, body),
  });
}

export function useExportOperations() {
  return useMutation({
    mutationFn: (body: ExportOperationLogRequest) =>
      request<FileResponse>(AUDIT_PATHS.exportOperations, body),
  });
}

/** People to filter the operation log by (the members the caller may see). */
export function useOperatorOptions() {
  return useQuery({
    queryKey: ['audit', 'operators'],
    queryFn: () => request<MemberOption[]>('/api/personnel/memberOptions'),
    staleTime: 60_000,
  });
}

export function useVerifyChain() {
  return useMutation({
    mutationFn: () => request<ChainVerification>(AUDIT_PATHS.verifyChain),
  });
}

/** Hands a downloaded file to the browser under the server's file name. */
export function saveFile(file: FileResponse, fallbackName: string): void {
  const url = URL.createObjectURL(file.blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = file.filename || fallbackName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

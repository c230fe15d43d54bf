import type {
  BatchPermissionRequest,
  BatchTransferRequest,
  DevicePermissionView,
  ExportDataRequest,
  MemberOption,
} from '@coldchain/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FileResponse, request } from '../../../api/request';

/** Batch calls of docs/API.md on the selected monitors. */
export const BATCH_PATHS = {
  transfer: '/api/device/batchTransfer',
  permission: '/api/device/batchPermission',
  exportData: '/api/device/exportData',
  memberOptions: '/api/personnel/memberOptions',
  devicePermissions: '/api/device/devicePermissions',
} as const;

/** Who holds a per-user right on one monitor (shown when a single monitor is selected). */
export function useDevicePermissions(deviceId: string | null) {
  return useQuery({
    queryKey: ['devices', 'permissions', deviceId],
    queryFn: () => request<DevicePermissionView[]>(BATCH_PATHS.devicePermissions, { deviceId }),
    enabled: !!deviceId,
  });
}

export function useBatchTransfer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BatchTransferRequest) => request<{ count: number }>(BATCH_PATHS.transfer, body),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ['devices'] });
      await client.invalidateQueries({ queryKey: ['groups'] });
    },
  });
}

export function useBatchPermission() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BatchPermissionRequest) => request<{ count: number }>(BATCH_PATHS.permission, body),
    onSuccess: () => client.invalidateQueries({ queryKey: ['devices', 'permissions'] }),
  });
}

export function useExportData() {
  return useMutation({
    mutationFn: (body: ExportDataRequest) => request<FileResponse>(BATCH_PATHS.exportData, body),
  });
}

/** People of the caller's departments, for the permission dialog. */
export function useMemberOptions(enabled: boolean) {
  return useQuery({
    queryKey: ['personnel', 'memberOptions'],
    queryFn: () => request<MemberOption[]>(BATCH_PATHS.memberOptions),
    enabled,
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

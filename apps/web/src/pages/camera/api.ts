import type {
  AlarmSnapshotView,
  CameraScreenView,
  CameraView,
  ImportCamerasResult,
  LiveAddress,
  Page,
  PageCamerasRequest,
  PlatformAccountView,
  SaveCameraRequest,
  SaveCameraScreenRequest,
  SavePlatformAccountRequest,
} from '@coldchain/contract';
import { MsgCode } from '@coldchain/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { RequestError, request } from '../../api/request';

/** The console's camera calls (API.md "Cameras"). */
export const CAMERA_PATHS = {
  saveAccount: '/api/camera/savePlatformAccount',
  pageAccounts: '/api/camera/pagePlatformAccounts',
  deleteAccount: '/api/camera/deletePlatformAccount',
  importCameras: '/api/camera/importCameras',
  saveCamera: '/api/camera/saveCamera',
  deleteCamera: '/api/camera/deleteCamera',
  pageCameras: '/api/camera/pageCameras',
  cameraDetail: '/api/camera/cameraDetail',
  liveAddress: '/api/camera/liveAddress',
  alarmSnapshots: '/api/camera/alarmSnapshots',
  screen: '/api/camera/screen',
  saveScreen: '/api/camera/saveScreen',
} as const;

const CameraKey = {
  all: ['camera'],
  cameras: (body: object) => ['camera', 'cameras', body],
  camera: (id: string) => ['camera', 'camera', id],
  accounts: ['camera', 'accounts'],
  screen: ['camera', 'screen'],
  snapshots: (alarmId: string) => ['camera', 'snapshots', alarmId],
} as const;

/** A company has few accounts: one page of 100 shows them all. */
const ALL = { pageNum: 1, pageSize: 100 };

export function useCameras(body: PageCamerasRequest) {
  return useQuery({
    queryKey: CameraKey.cameras(body),
    queryFn: () => request<Page<CameraView>>(CAMERA_PATHS.pageCameras, body),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function useCamera(id: string | null) {
  return useQuery({
    queryKey: CameraKey.camera(id ?? ''),
    queryFn: () => request<CameraView>(CAMERA_PATHS.cameraDetail, { id }),
    enabled: Boolean(id),
    retry: false,
  });
}

export function usePlatformAccounts() {
  return useQuery({
    queryKey: CameraKey.accounts,
    queryFn: () => request<Page<PlatformAccountView>>(CAMERA_PATHS.pageAccounts, ALL),
    retry: false,
  });
}

function useCameraMutation<Body, Answer>(path: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Body) => request<Answer>(path, body),
    onSuccess: () => client.invalidateQueries({ queryKey: CameraKey.all }),
  });
}

export const useSaveAccount = () =>
  useCameraMutation<SavePlatformAccountRequest, { id: string }>(CAMERA_PATHS.saveAccount);
export const useDeleteAccount = () => useCameraMutation<{ id: string }, null>(CAMERA_PATHS.deleteAccount);
export const useImportCameras = () =>
  useCameraMutation<{ id: string }, ImportCamerasResult>(CAMERA_PATHS.importCameras);
export const useSaveCamera = () =>
  useCameraMutation<SaveCameraRequest, { id: string }>(CAMERA_PATHS.saveCamera);
export const useDeleteCamera = () => useCameraMutation<{ id: string }, null>(CAMERA_PATHS.deleteCamera);
export const useSaveScreen = () => useCameraMutation<SaveCameraScreenRequest, null>(CAMERA_PATHS.saveScreen);

export function useCameraScreen() {
  return useQuery({
    queryKey: CameraKey.screen,
    queryFn: () => request<CameraScreenView>(CAMERA_PATHS.screen, {}),
    retry: false,
  });
}

/** Asks for the live address; a refusal is toasted once and shown in the player. */
export function fetchLiveAddress(id: string): Promise<LiveAddress> {
  return request<LiveAddress>(CAMERA_PATHS.liveAddress, { id });
}

/** The alarm's pictures; polled while one is still being taken. */
export function useAlarmSnapshots(alarmId: string, enabled: boolean) {
  return useQuery({
    queryKey: CameraKey.snapshots(alarmId),
    queryFn: () => request<AlarmSnapshotView[]>(CAMERA_PATHS.alarmSnapshots, { alarmId }),
    enabled,
    retry: false,
    refetchInterval: (query) => (query.state.data?.some((s) => s.state === 'pending') ? 3000 : false),
  });
}

/** The server's refusal (service off, no permission, the platform's words); null for transport faults. */
export function refusalOf(error: unknown): string | null {
  return error instanceof RequestError && error.msgCode === MsgCode.Failed && error.message
    ? error.message
    : null;
}

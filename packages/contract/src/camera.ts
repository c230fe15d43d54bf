import { z } from 'zod';

const Id = z.coerce.string().regex(/^[1-9]\d{0,15}$/, { error: 'rule.id' });

const Paging = {
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
};

/** The supplier-enabled service every camera call needs (menus.ts `camera`). */
export const CAMERA_SERVICE = 'service:camera';

/**
 * Video platforms a camera can live on. `ezviz`: the EZVIZ open platform (access token from app
 * key and secret); `direct`: a camera or gateway that already publishes an HLS address.
 */
export const CAMERA_PLATFORMS = ['ezviz', 'direct'] as const;
export type CameraPlatform = (typeof CAMERA_PLATFORMS)[number];

/** Camera and platform names: 2-100 characters (docs/decisions.md "Cameras": not the spec's once-named 2-20). */
const Name = z.string().trim().min(2, { error: 'rule.cameraName' }).max(100, { error: 'rule.cameraName' });

/** An http(s) address of an HLS playlist (the direct platform). */
const StreamUrl = z
  .string()
  .trim()
  .max(500, { error: 'rule.streamUrl' })
  .refine((v) => /^https?:\/\/[^\s]+$/i.test(v) || /^\/api\/camera\/demo\/[\w.-]+$/.test(v), {
    error: 'rule.streamUrl',
  });

/** `/api/camera/savePlatformAccount` (API.md "Cameras"): omitted credentials keep the saved ones. */
export const SavePlatformAccountRequest = z.object({
  id: Id.optional(),
  name: Name,
  platform: z.enum(CAMERA_PLATFORMS, { error: 'rule.cameraPlatform' }),
  appKey: z.string().trim().min(1).max(200, { error: 'rule.appKey' }).optional(),
  appSecret: z.string().trim().min(1).max(200, { error: 'rule.appSecret' }).optional(),
});
export type SavePlatformAccountRequest = z.infer<typeof SavePlatformAccountRequest>;

export const CameraIdRequest = z.object({ id: Id });
export type CameraIdRequest = z.infer<typeof CameraIdRequest>;

export const PagePlatformAccountsRequest = z.object({
  ...Paging,
  keyword: z.string().trim().max(100).optional(),
});
export type PagePlatformAccountsRequest = z.infer<typeof PagePlatformAccountsRequest>;

/** A platform account as every answer shows it: the credentials masked, never in clear. */
export interface PlatformAccountView {
  id: string;
  name: string;
  platform: CameraPlatform;
  /** `ab****yz`, or '' when none is saved. */
  appKeyMasked: string;
  hasSecret: boolean;
  cameraCount: number;
  createTime: number;
}

/** `/api/camera/saveCamera` (API.md "Cameras"). */
export const SaveCameraRequest = z.object({
  id: Id.optional(),
  name: Name,
  serial: z.string().trim().min(1, { error: 'rule.cameraSerial' }).max(64, { error: 'rule.cameraSerial' }),
  type: z.string().trim().max(50).optional(),
  platformAccountId: Id,
  channel: z.coerce
    .number()
    .int()
    .min(1, { error: 'rule.cameraChannel' })
    .max(256, { error: 'rule.cameraChannel' })
    .optional(),
  streamUrl: z.union([z.literal(''), StreamUrl]).optional(),
  departmentId: z
    .union([z.literal(''), Id])
    .nullable()
    .optional(),
  equipmentIds: z.array(Id).max(100).optional(),
  deviceIds: z.array(Id).max(100).optional(),
});
export type SaveCameraRequest = z.infer<typeof SaveCameraRequest>;

export const PageCamerasRequest = z.object({
  ...Paging,
  keyword: z.string().trim().max(100).optional(),
  platformAccountId: Id.optional(),
  online: z.boolean().optional(),
});
export type PageCamerasRequest = z.infer<typeof PageCamerasRequest>;

export interface CameraView {
  id: string;
  name: string;
  serial: string;
  type: string;
  platform: CameraPlatform;
  platformAccountId: string;
  platformAccountName: string;
  channel: number;
  streamUrl: string;
  departmentId: string | null;
  departmentName: string | null;
  /** As the platform last said; null before it was ever asked. */
  online: boolean | null;
  onlineCheckTime: number | null;
  equipment: { id: string; name: string }[];
  devices: { id: string; name: string; serial: string }[];
  createTime: number;
}

/** `/api/camera/liveAddress` → where the browser plays the live view. */
export interface LiveAddress {
  url: string;
  protocol: 'hls';
  /** Epoch ms after which the console asks again. */
  expireTime: number;
}

/** `/api/camera/importCameras` `{ id }` (a platform account) → what the platform listed. */
export interface ImportCamerasResult {
  listed: number;
  added: number;
  updated: number;
}

export const AlarmSnapshotsRequest = z.object({ alarmId: Id });
export type AlarmSnapshotsRequest = z.infer<typeof AlarmSnapshotsRequest>;

export const SNAPSHOT_STATES = ['pending', 'ok', 'failed'] as const;
export type SnapshotState = (typeof SNAPSHOT_STATES)[number];

/** `/api/camera/alarmSnapshots` → the pictures taken when the alarm started, one per watching camera. */
export interface AlarmSnapshotView {
  cameraId: string;
  cameraName: string;
  state: SnapshotState;
  /** `/files/<name>.jpg` when taken. */
  imageUrl: string | null;
  error: string;
  takenTime: number | null;
}

export const SCREEN_SIZES = [1, 4, 9, 16] as const;

/** `/api/camera/saveScreen`: the camera wall of the caller in this company. */
export const SaveCameraScreenRequest = z.object({
  size: z.union([z.literal(1), z.literal(4), z.literal(9), z.literal(16)], { error: 'rule.screenSize' }),
  cameraIds: z.array(Id).max(16),
});
export type SaveCameraScreenRequest = z.infer<typeof SaveCameraScreenRequest>;

export interface CameraScreenView {
  size: 1 | 4 | 9 | 16;
  /** The cameras still visible to the caller, in tile order. */
  cameraIds: string[];
}

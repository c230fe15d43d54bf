import type { CameraPlatform } from '@coldchain/contract';
import type { OutboundGuard } from '../../lib/outbound-guard';
import { directPlatform } from './platform-direct';
import { ezvizPlatform } from './platform-ezviz';

/** The account's credentials, opened from the secret box only for the call that needs them. */
export interface PlatformCredentials {
  appKey: string;
  appSecret: string;
}

/** Where an adapter keeps the access token between calls (sealed in the account's row). */
export interface TokenStore {
  read(): Promise<{ token: string; expiresAt: Date } | null>;
  save(token: string, expiresAt: Date): Promise<void>;
  clear(): Promise<void>;
}

/** What every adapter call is given: the account, the guard every outbound call goes through. */
export interface PlatformContext {
  credentials: PlatformCredentials | null;
  tokens: TokenStore;
  guard: OutboundGuard;
  options: CameraPlatformOptions;
  now: () => Date;
}

/** The camera as a platform knows it. */
export interface PlatformCamera {
  serial: string;
  channel: number;
  streamUrl: string;
}

export interface ListedCamera {
  serial: string;
  channel: number;
  name: string;
  type: string;
  online: boolean;
}

/**
 * One video platform. A new platform (Imou, a local NVR gateway) is one file implementing this,
 * added to ADAPTERS below and to CAMERA_PLATFORMS in the contract (docs/decisions.md "Cameras").
 */
export interface CameraPlatformAdapter {
  /** Whether an account needs an app key and secret. */
  needsCredentials: boolean;
  /** The account's cameras with their online state; [] for platforms without a list. */
  listCameras(ctx: PlatformContext): Promise<ListedCamera[]>;
  /** A playable HLS address and when it stops working. */
  liveAddress(ctx: PlatformContext, camera: PlatformCamera): Promise<{ url: string; expireTime: number }>;
  /** A JPEG of what the camera sees now. */
  snapshot(ctx: PlatformContext, camera: PlatformCamera): Promise<Buffer>;
}

export interface CameraPlatformOptions {
  /** EZVIZ open platform API, `EZVIZ_BASE_URL` (default https://open.ys7.com). */
  ezvizBaseUrl: string;
  /** Each platform call's bound, ms. */
  timeoutMs: number;
}

const ADAPTERS: Record<CameraPlatform, CameraPlatformAdapter> = {
  ezviz: ezvizPlatform,
  direct: directPlatform,
};

export function platformAdapter(platform: string): CameraPlatformAdapter {
  const adapter = ADAPTERS[platform as CameraPlatform];
  if (!adapter) throw new Error(`unknown camera platform ${platform}`);
  return adapter;
}

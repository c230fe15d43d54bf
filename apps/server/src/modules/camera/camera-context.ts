import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { OutboundGuard } from '../../lib/outbound-guard';
import type { SecretBox } from '../../lib/secret-box';
import type { FileStore } from '../files/store/store';
import { cameraPlatformAccounts } from './camera.table';
import type { PlatformAccountRow } from './camera-access';
import {
  type CameraPlatformOptions,
  type PlatformCamera,
  type PlatformContext,
  platformAdapter,
} from './camera-platforms';
import { PlatformError } from './platform-http';

/** What the camera module needs from the app: the secret box, the outbound guard, options and the clock. */
export interface CameraDeps {
  db: Db;
  box: SecretBox;
  guard: OutboundGuard;
  options: CameraPlatformOptions;
  /** Where snapshot pictures are stored (modules/files serves them). */
  files: FileStore;
  now: () => Date;
}

/** The adapter's view of an account: credentials opened, its token kept sealed in the account's row. */
export function platformContext(deps: CameraDeps, account: PlatformAccountRow): PlatformContext {
  const { db, box } = deps;
  const credentials =
    account.appKeySealed && account.appSecretSealed
      ? { appKey: box.open(account.appKeySealed), appSecret: box.open(account.appSecretSealed) }
      : null;
  return {
    credentials,
    guard: deps.guard,
    options: deps.options,
    now: deps.now,
    tokens: {
      async read() {
        const [row] = await db
          .select({
            sealed: cameraPlatformAccounts.tokenSealed,
            expiresAt: cameraPlatformAccounts.tokenExpiresAt,
          })
          .from(cameraPlatformAccounts)
          .where(eq(cameraPlatformAccounts.id, account.id));
        if (!row?.sealed || !row.expiresAt) return null;
        return { token: box.open(row.sealed), expiresAt: row.expiresAt };
      },
      async save(token, expiresAt) {
        await db
          .update(cameraPlatformAccounts)
          .set({ tokenSealed: box.seal(token), tokenExpiresAt: expiresAt })
          .where(eq(cameraPlatformAccounts.id, account.id));
      },
      async clear() {
        await db
          .update(cameraPlatformAccounts)
          .set({ tokenSealed: null, tokenExpiresAt: null })
          .where(eq(cameraPlatformAccounts.id, account.id));
      },
    },
  };
}

/**
 * Runs one platform call; the platform's refusal becomes the message the person reads (the reason
 * the platform gave), never a 5xx.
 */
export async function askPlatform<T>(
  deps: CameraDeps,
  account: PlatformAccountRow,
  work: (ctx: PlatformContext, adapter: ReturnType<typeof platformAdapter>) => Promise<T>,
): Promise<T> {
  try {
    return await work(platformContext(deps, account), platformAdapter(account.platform));
  } catch (error) {
    if (error instanceof PlatformError)
      throw new AppError('CAMERA_PLATFORM_REFUSED', { reason: error.message });
    throw error;
  }
}

export function platformCameraOf(row: {
  serial: string;
  channel: number;
  streamUrl: string;
}): PlatformCamera {
  return { serial: row.serial, channel: row.channel, streamUrl: row.streamUrl };
}

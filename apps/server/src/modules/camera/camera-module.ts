import type { FastifyInstance } from 'fastify';
import { OutboundGuard } from '../../lib/outbound-guard';
import type { SecretBox } from '../../lib/secret-box';
import type { FileStore } from '../files/store/store';
import { alarmEmailPictureLine, alarmPictureRoutes } from './alarm-picture-link';
import { AlarmSnapshotTaker } from './alarm-snapshots';
import { cameraRoutes } from './camera.routes';
import type { CameraDeps } from './camera-context';
import { cameraDemoStreamRoutes } from './camera-demo-stream';
import type { CameraPlatformOptions } from './camera-platforms';

declare module 'fastify' {
  interface FastifyInstance {
    /** Cameras (modules/camera): the alarm picture taker, for tests and shutdown. */
    cameras: { snapshots: AlarmSnapshotTaker; deps: CameraDeps };
  }
}

export interface CameraSettings extends CameraPlatformOptions {
  /** `CAMERA_ALLOW_HOSTS`: hosts the SSRF guard lets camera calls reach (an NVR on the LAN, tests). */
  allowHosts: string;
  /** `CAMERA_SNAPSHOT_TIMEOUT_MS`: the bound of one alarm picture, platform call and download included. */
  snapshotTimeoutMs: number;
}

const positive = (text: string | undefined, fallback: number) => {
  const value = Number(text);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};

/** The camera settings from the environment; every one has a working default. */
export function cameraSettingsFrom(env: NodeJS.ProcessEnv): CameraSettings {
  return {
    ezvizBaseUrl: env.EZVIZ_BASE_URL?.trim() || 'https://open.ys7.com',
    timeoutMs: positive(env.CAMERA_TIMEOUT_MS, 8000),
    allowHosts: env.CAMERA_ALLOW_HOSTS ?? '',
    snapshotTimeoutMs: positive(env.CAMERA_SNAPSHOT_TIMEOUT_MS, 15_000),
  };
}

/**
 * `CAMERA_MEDIA_SOURCES`: where browsers fetch camera platforms' HLS from (EZVIZ:
 * `https://*.ys7.com`), added to the console's connect-src and media-src. Only `https://host`
 * entries (a leading `*.` allowed) are taken, so a setting cannot widen the policy to everything.
 * The demo's clip and direct streams proxied by this server need nothing: they are same-origin.
 */
export function cameraMediaSources(env: NodeJS.ProcessEnv): string[] {
  return (env.CAMERA_MEDIA_SOURCES ?? '')
    .split(/[\s,]+/)
    .filter((entry) => /^https:\/\/(\*\.)?[a-z0-9.-]+(:\d+)?$/i.test(entry));
}

/**
 * Registers the camera calls, the demo stream, and the alarm picture taker on the engine's
 * after-commit signal: the alarm module knows nothing of cameras (no import circle), and a camera
 * never sits between an alarm and its notifications.
 */
export async function registerCameras(
  app: FastifyInstance,
  options: { box: SecretBox; files: FileStore; baseUrl: string; settings?: CameraSettings },
): Promise<void> {
  const settings = options.settings ?? cameraSettingsFrom(process.env);
  const deps: CameraDeps = {
    db: app.db,
    box: options.box,
    guard: new OutboundGuard(settings.allowHosts),
    options: settings,
    files: options.files,
    now: () => new Date(),
  };
  const snapshots = new AlarmSnapshotTaker(deps, app.log, settings.snapshotTimeoutMs);
  app.decorate('cameras', { snapshots, deps });
  const stop = app.alarms.onRaised(() => snapshots.noteRaised());
  app.addHook('onClose', async () => {
    stop();
    await snapshots.idle();
  });
  await app.register(cameraRoutes, { deps });
  await app.register(cameraDemoStreamRoutes);
  await app.register(alarmPictureRoutes, { deps });
  app.delivery.alarmEmailExtra = alarmEmailPictureLine(deps, options.baseUrl);
}

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { DEMO_STREAM_PREFIX, demoFixtureFile } from './camera-demo-stream';
import type { CameraPlatformAdapter } from './camera-platforms';
import { PlatformError } from './platform-http';

/** A direct address does not expire; the console asks again after a day all the same. */
const DAY_MS = 86_400_000;
const FFMPEG = process.env.FFMPEG_PATH ?? '/usr/bin/ffmpeg';
const MAX_FRAME_BYTES = 5 << 20;

/**
 * A read from the stream that moves nothing for this long fails (ffmpeg's `-rw_timeout`), so a
 * stalled connection costs one try, not the whole timeout: the grab is then tried once more.
 */
const STALLED_READ_MS = 4_000;

/** One frame of an HLS stream as JPEG, by ffmpeg, within the timeout; the address passed the guard first. */
async function grabFrame(url: string, timeoutMs: number): Promise<Buffer> {
  if (!existsSync(FFMPEG)) throw new PlatformError('no frame grabber (ffmpeg) on this server');
  const started = Date.now();
  const stalledMs = Math.min(STALLED_READ_MS, Math.max(1, Math.floor(timeoutMs / 3)));
  try {
    return await grabOnce(url, timeoutMs, stalledMs);
  } catch (error) {
    // A stream with no picture (an address that answers 404, a playlist without video) fails
    // at once and alike each time; a try that failed only after a stall is worth another while
    // the time allows one.
    const spent = Date.now() - started;
    if (spent < stalledMs || timeoutMs - spent < stalledMs) throw error;
    return grabOnce(url, timeoutMs - spent, stalledMs);
  }
}

function grabOnce(url: string, timeoutMs: number, stalledMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile(
      FFMPEG,
      [
        '-hide_banner',
        '-loglevel',
        'error',
        // Network only: a playlist naming a file: or data: segment reads nothing of this server.
        '-protocol_whitelist',
        'http,https,tcp,tls,crypto',
        '-rw_timeout',
        String(stalledMs * 1000),
        '-i',
        url,
        '-frames:v',
        '1',
        '-f',
        'image2',
        '-c:v',
        'mjpeg',
        'pipe:1',
      ],
      { encoding: 'buffer', timeout: timeoutMs, maxBuffer: MAX_FRAME_BYTES },
      (error, stdout) => {
        if (error || stdout.length === 0)
          reject(new PlatformError(`no frame from the stream${error ? `: ${error.message}` : ''}`));
        else resolve(stdout);
      },
    );
  });
}

/**
 * Cameras (or gateways) that already publish HLS: the saved address is the live view. The demo
 * camera's address is the server's own fixture (camera-demo-stream.ts), whose picture is a
 * committed frame of the clip.
 */
export const directPlatform: CameraPlatformAdapter = {
  needsCredentials: false,

  async listCameras() {
    return [];
  },

  async liveAddress(ctx, camera) {
    if (!camera.streamUrl) throw new PlatformError('the camera has no stream address');
    return { url: camera.streamUrl, expireTime: ctx.now().getTime() + DAY_MS };
  },

  async snapshot(ctx, camera) {
    if (camera.streamUrl.startsWith(DEMO_STREAM_PREFIX)) return readFile(demoFixtureFile('snapshot.jpg')!);
    try {
      await ctx.guard.resolve(camera.streamUrl);
    } catch (error) {
      throw new PlatformError(`address refused: ${error instanceof Error ? error.message : String(error)}`);
    }
    return grabFrame(camera.streamUrl, ctx.options.timeoutMs);
  },
};

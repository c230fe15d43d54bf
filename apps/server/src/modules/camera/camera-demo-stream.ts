import { createReadStream, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../lib/app-error';

/** Where the demo camera's clip is served; a direct camera's address may be this path. */
export const DEMO_STREAM_PREFIX = '/api/camera/demo/';
export const DEMO_STREAM_URL = `${DEMO_STREAM_PREFIX}stream.m3u8`;

/** The committed clip (apps/server/fixtures/camera-demo, made once with ffmpeg: 4 s, 320x180, H.264 baseline). */
const FIXTURE_DIR = fileURLToPath(new URL('../../../fixtures/camera-demo/', import.meta.url));
const FILES: Record<string, string> = {
  'stream.m3u8': 'application/vnd.apple.mpegurl',
  'segment0.ts': 'video/mp2t',
  'segment1.ts': 'video/mp2t',
  'snapshot.jpg': 'image/jpeg',
};

export function demoFixtureFile(name: string): string | null {
  return FILES[name] ? `${FIXTURE_DIR}${name}` : null;
}

/**
 * The demo camera's stream: public like other static media (it shows a test pattern, nothing of
 * anyone's), so the browser's player fetches it without the console's token headers.
 */
export const cameraDemoStreamRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Params: { name: string } }>(
    `${DEMO_STREAM_PREFIX}:name`,
    { config: { public: true } },
    async (request, reply) => {
      const file = demoFixtureFile(request.params.name);
      if (!file || !existsSync(file)) throw new AppError('NOT_FOUND', {}, 404);
      return reply
        .header('Content-Type', FILES[request.params.name]!)
        .header('Cache-Control', 'public, max-age=3600')
        .send(createReadStream(file));
    },
  );
};

import { existsSync } from 'node:fs';
import path from 'node:path';
import type { WireLanguage } from '@coldchain/contract';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { translate } from '../i18n/messages';

/** Paths the server answers itself; everything else that is a page belongs to the console. */
const SERVER_PREFIXES = ['/api/', '/device/', '/healthz'];

/** Vite names every file under assets/ by its content's hash, so a copy never goes stale. */
const HASHED_ASSET = /^assets\/.+-[\w-]{8,}\.\w+$/;

/**
 * Hashed bundles are kept for a year; anything else (index.html, favicon, files in public/)
 * is revalidated on each use, so a new build reaches every browser at its next visit.
 */
export function cacheControlFor(webDist: string, filePath: string): string {
  const relative = path
    .relative(webDist, filePath)
    .split(path.sep)
    .join('/')
    .replace(/\.(br|gz)$/, '');
  return HASHED_ASSET.test(relative) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/**
 * Serves the built console with an SPA fallback: a GET for an unknown page returns index.html
 * and the console's router decides (its own /404 included). Unknown `/api` paths answer 404.
 */
export async function registerConsole(app: FastifyInstance, webDist: string) {
  const indexFile = path.join(webDist, 'index.html');
  const built = existsSync(indexFile);
  if (built) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      // The build writes .br and .gz copies beside each text file (apps/web/scripts/compress-dist.mjs).
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, filePath) => reply.header('cache-control', cacheControlFor(webDist, filePath)),
    });
  } else {
    app.log.warn({ webDist }, 'console not built: run "npm run build" (npm start does it for you)');
  }

  app.setNotFoundHandler((request, reply) => {
    const language: WireLanguage = request.language ?? 'en';
    const urlPath = request.url.split('?')[0] ?? '/';
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !SERVER_PREFIXES.some((p) => urlPath.startsWith(p));
    if (isPage && built) {
      // index.html must never be cached: it names the hashed bundles of the current build.
      return reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
    }
    if (isPage) {
      return reply.status(503).type('text/plain').send('The console is not built yet: run "npm run build".');
    }
    return reply
      .status(404)
      .send({ msgCode: 404, msgContent: translate('UNKNOWN_PATH', language, { path: urlPath }), data: null });
  });
}

import type { FastifyInstance } from 'fastify';

/**
 * Security headers of every answer (docs/decisions.md, "Security headers"). The console is a
 * script bundle served from this origin, so the Content-Security-Policy lets scripts come from
 * here only and nowhere inline; the console is never framed, except the full-screen dashboards
 * where `DASHBOARD_FRAME_ANCESTORS` names who may embed them.
 */
export interface SecurityHeaderOptions {
  /** MAP_TILE_URL: the map's tiles are images from its origin. */
  mapTileUrl: string;
  /** Origins allowed to frame `/screen` and `/screen2`; empty = nobody. */
  dashboardFrameAncestors: string[];
  /** CAMERA_MEDIA_SOURCES: hosts of camera platforms' HLS streams the live view fetches (modules/camera). */
  mediaSources?: string[];
}

/** Full-screen dashboards (spec section 2): wall displays may show them inside another page. */
const DASHBOARD_PATHS = new Set(['/screen', '/screen2']);

const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * The image source of a tile template: its scheme and host, `{s}` (a, b, c sub-domains) as a
 * wildcard; a template whose host cannot be told falls back to its scheme. Empty when unset.
 */
export function tileImageSource(template: string): string {
  const match = /^(https?):\/\/([^/?#]+)/i.exec(template.trim());
  if (!match) return '';
  const scheme = match[1]!.toLowerCase();
  const host = match[2]!.replaceAll('{s}', '*');
  if (/[{}\s'";,]/.test(host) || host.lastIndexOf('*') > 0) return `${scheme}:`;
  return `${scheme}://${host}`;
}

/**
 * Parses `DASHBOARD_FRAME_ANCESTORS`: origins (`https://wall.example.com`) separated by commas
 * or spaces; a string is the reason it was refused.
 */
export function parseFrameAncestors(text: string): string[] | string {
  const entries = text.split(/[\s,]+/).filter(Boolean);
  const origins: string[] = [];
  for (const entry of entries) {
    let url: URL | null = null;
    try {
      url = new URL(entry);
    } catch {
      url = null;
    }
    const isOrigin =
      url !== null &&
      (url.protocol === 'https:' || url.protocol === 'http:') &&
      (url.pathname === '/' || url.pathname === '') &&
      !url.search &&
      !url.hash &&
      !url.username;
    if (!isOrigin || !url) return `not an origin like https://wall.example.com: ${entry}`;
    origins.push(url.origin);
  }
  return origins;
}

/** The console's policy; `frameAncestors` is `'none'` or the allowed origins. */
export function consolePolicy(imageSource: string, frameAncestors: string, mediaSources = ''): string {
  const media = mediaSources ? ` ${mediaSources}` : '';
  return [
    "default-src 'self'",
    // No inline script anywhere: the built index.html loads one module bundle.
    "script-src 'self'",
    // Ant Design writes its CSS-in-JS as <style> elements at run time and components set style
    // attributes; both need 'unsafe-inline' for styles (never for scripts).
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob:${imageSource ? ` ${imageSource}` : ''}`,
    "font-src 'self' data:",
    // 'self' covers the live socket on this host (ws: and wss:, CSP level 3).
    `connect-src 'self'${media}`,
    `media-src 'self' blob:${media}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ');
}

export function registerSecurityHeaders(app: FastifyInstance, options: SecurityHeaderOptions) {
  const imageSource = tileImageSource(options.mapTileUrl);
  const media = (options.mediaSources ?? []).join(' ');
  const closed = consolePolicy(imageSource, "'none'", media);
  const dashboards = options.dashboardFrameAncestors.length
    ? consolePolicy(imageSource, options.dashboardFrameAncestors.join(' '), media)
    : closed;

  // onRequest, so that every answer has them (errors, 404s and files included); a route that
  // needs its own policy (uploaded files) replaces the header.
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0]!.replace(/\/+$/, '') || '/';
    const framable = DASHBOARD_PATHS.has(path) && options.dashboardFrameAncestors.length > 0;
    reply.header('Content-Security-Policy', framable ? dashboards : closed);
    // For browsers without frame-ancestors; it cannot list origins, so framable pages omit it.
    if (!framable) reply.header('X-Frame-Options', 'DENY');
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'strict-origin-when-cross-origin');
    reply.header('Cross-Origin-Opener-Policy', 'same-origin');
    // Only over TLS (directly, or as told by a trusted proxy): over plain HTTP a browser ignores
    // it anyway, and sending it from a test or LAN address pins nothing useful.
    if (request.protocol === 'https') reply.header('Strict-Transport-Security', HSTS);
  });
}

import {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';

/**
 * Structured JSON logs (pino). Fastify logs method, url and status, never bodies; the redaction
 * below also keeps tokens, passwords and cookies out if a header or object ever gets logged.
 */
export const REDACTED_PATHS = [
  'req.headers.accesstoken',
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.accessToken',
  '*.token',
  '*.deviceKey',
];

/**
 * A request as logged: method, path and client, never headers. Query values are hidden (a webhook's
 * verify token travels there); their names are kept to tell calls apart.
 */
export function requestForLog(request: { method: string; url: string; ip?: string }) {
  return { method: request.method, url: urlForLog(request.url), remoteAddress: request.ip };
}

export function urlForLog(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const names = url
    .slice(at + 1)
    .split('&')
    .filter(Boolean)
    .map((pair) => `${pair.split('=')[0]}=…`);
  return `${url.slice(0, at)}?${names.join('&')}`;
}

export function loggerOptions(level: string, stream?: { write: (line: string) => void }) {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: { req: requestForLog },
    ...(stream ? { stream } : {}),
  } satisfies FastifyServerOptions['logger'];
}

/** How often the access summary is written at info level. */
export const ACCESS_SUMMARY_INTERVAL_MS = 60_000;
/** A request open this long is logged at warn, once: a call that never answers must leave a trace. */
export const STUCK_REQUEST_MS = 30_000;
/** Durations kept per interval for its percentiles (a uniform sample beyond that). */
const SAMPLE_SIZE = 4_096;

/**
 * Requests of one interval: counts by status class, durations for p50 and p99, the slowest call.
 * Adding one costs a few comparisons and an array write, where a log line costs its JSON,
 * redaction and write (docs/performance.md, "Per-request work").
 */
export class AccessSummary {
  private count = 0;
  private readonly statuses = { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 };
  private durations: number[] = [];
  private slowest: { route: string; ms: number } | null = null;

  add(status: number, ms: number, route: string): void {
    this.count += 1;
    const statusClass = status >= 500 ? '5xx' : status >= 400 ? '4xx' : status >= 300 ? '3xx' : '2xx';
    this.statuses[statusClass] += 1;
    if (this.durations.length < SAMPLE_SIZE) this.durations.push(ms);
    else {
      // Reservoir sampling: every request of the interval is equally likely to be kept.
      const slot = Math.floor(Math.random() * this.count);
      if (slot < SAMPLE_SIZE) this.durations[slot] = ms;
    }
    if (!this.slowest || ms > this.slowest.ms) this.slowest = { route, ms };
  }

  /** The interval's figures, and a new interval; null when nothing was requested. */
  take() {
    if (this.count === 0) return null;
    const sorted = this.durations.sort((a, b) => a - b);
    const at = (q: number) => round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);
    const figures = {
      requests: this.count,
      statuses: { ...this.statuses },
      p50Ms: at(0.5),
      p99Ms: at(0.99),
      slowest: this.slowest && { route: this.slowest.route, ms: round(this.slowest.ms) },
    };
    this.count = 0;
    for (const key of Object.keys(this.statuses) as (keyof typeof this.statuses)[]) this.statuses[key] = 0;
    this.durations = [];
    this.slowest = null;
    return figures;
  }
}

/** pino's loggers answer it; Fastify's stand-in without a logger does not (and logs nothing). */
type LevelCheck = { isLevelEnabled?: (level: string) => boolean };

const round = (ms: number) => Math.round(ms * 10) / 10;

/**
 * Access logs that cost less than a tenth of a request (docs/performance.md, "Per-request work").
 * Fastify's own two info lines per request (their JSON, redaction and write were a quarter of a
 * light call) give way to: every request added to a summary written at info every `intervalMs`,
 * and logged on its own only at debug level (server faults at info, so they are seen without
 * debug). Errors keep Fastify's lines, and plugins/errors.ts logs unexpected ones with the stack.
 */
export class AccessLog extends LogController {
  readonly summary = new AccessSummary();
  /**
   * Requests without an answer yet, with when they came (live sockets left out: they stay open by
   * design). One past STUCK_REQUEST_MS is logged and dropped from here, so a request the client
   * gave up on costs a map entry for that long at most.
   */
  private readonly open = new Map<FastifyRequest, number>();
  private readonly reportedStuck = new WeakSet<FastifyRequest>();

  override incomingRequest(request: FastifyRequest, reply: FastifyReply): void {
    if (request.headers.upgrade) return;
    this.open.set(request, performance.now());
    // A client that went away (a closed tab, a test's closed page) is not waiting for an answer.
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) this.open.delete(request);
    });
  }

  /** Logs, once each, the requests open longer than `afterMs` (the summary's timer calls it). */
  reportStuck(log: FastifyInstance['log'], afterMs = STUCK_REQUEST_MS, now = performance.now()): void {
    for (const [request, since] of this.open) {
      // Map order is arrival order: the rest came later.
      if (now - since < afterMs) break;
      this.open.delete(request);
      this.reportedStuck.add(request);
      log.warn(
        { req: request, openMs: Math.round(now - since) },
        'a request has had no answer for a long time',
      );
    }
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    this.open.delete(request);
    if (error) {
      super.requestCompleted(error, request, reply);
      return;
    }
    if (this.reportedStuck.has(request))
      reply.log.warn({ req: request, responseTime: reply.elapsedTime }, 'a long-open request was answered');
    const ms = reply.elapsedTime;
    this.summary.add(reply.statusCode, ms, request.routeOptions.url ?? 'no route');
    const level = reply.statusCode >= 500 ? 'info' : 'debug';
    if ((reply.log as LevelCheck).isLevelEnabled?.(level)) {
      reply.log[level]({ req: request, res: reply, responseTime: ms }, 'request completed');
    }
  }

  /**
   * Writes the summary at info every `intervalMs` while the app runs, and once more when it
   * closes; looks for requests open too long every few seconds.
   */
  start(app: FastifyInstance, intervalMs = ACCESS_SUMMARY_INTERVAL_MS): void {
    const write = () => {
      const figures = this.summary.take();
      if (figures) app.log.info({ access: figures }, 'requests since the last summary');
    };
    const timer = setInterval(write, intervalMs);
    timer.unref();
    const stuck = setInterval(() => this.reportStuck(app.log), STUCK_REQUEST_MS / 6);
    stuck.unref();
    // The last interval's requests are written too when the server stops.
    app.addHook('onClose', async () => {
      clearInterval(timer);
      clearInterval(stuck);
      write();
    });
  }
}

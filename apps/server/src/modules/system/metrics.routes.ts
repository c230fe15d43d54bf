import { createHash, timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { queryRows } from '../../db/client';
import { translate } from '../../i18n/messages';
import { createPlatformMetrics, type MetricSources } from './metrics';

/** node-postgres' pool, as drizzle's node-postgres driver keeps it in `$client`. */
interface PgPoolCounts {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/** Reads the gauges' values from the app when Prometheus scrapes. */
function sourcesOf(app: FastifyInstance): MetricSources {
  const client = (app.db as unknown as { $client?: unknown }).$client;
  const pool = app.database.kind === 'postgres' ? (client as PgPoolCounts | undefined) : undefined;
  return {
    socketCount: () => app.hub.socketCount(),
    connectsWaiting: () => app.admission.queued,
    jobQueue: async () => {
      try {
        const [row] = await queryRows<{ depth: number; oldest: number | null }>(
          app.db,
          sql`select count(*)::int as depth, extract(epoch from now() - min(run_at))::float8 as oldest
              from jobs where status = 'queued' and run_at <= now()`,
        );
        return { depth: Number(row?.depth ?? 0), oldestAgeSeconds: Math.max(0, Number(row?.oldest ?? 0)) };
      } catch {
        // A scrape while the database is away still answers the process metrics.
        return null;
      }
    },
    pool: () => (pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } : null),
  };
}

/** Compares digests, so neither the token's length nor its content leaks through timing. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer (.+)$/i.exec(header ?? '')?.[1] ?? '';
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(token)) && given.length > 0;
}

/**
 * `/metrics` in Prometheus' text format (docs/deployment.md "Health, readiness and metrics"):
 * off (404) without METRICS_TOKEN, else only with `Authorization: Bearer <METRICS_TOKEN>`.
 * Registered after the services it observes exist; it sets their metric hooks.
 */
export const metricsRoutes: FastifyPluginAsync<{ token: string | undefined }> = async (app, { token }) => {
  const metrics = createPlatformMetrics(sourcesOf(app), { processMetrics: Boolean(token) });
  app.ingest.observeBatch = metrics.observeIngestBatch;
  app.alarms.observeJudging = metrics.observeAlarmJudging;
  app.delivery.observeOutcome = metrics.observeDelivery;

  app.get('/metrics', { config: { public: true } }, async (request, reply) => {
    if (!token) {
      const language = request.language ?? 'en';
      return reply.status(404).send({
        msgCode: 404,
        msgContent: translate('UNKNOWN_PATH', language, { path: '/metrics' }),
        data: null,
      });
    }
    if (!bearerMatches(request.headers.authorization, token)) {
      return reply
        .status(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .send({ status: 'unauthorized' });
    }
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
};

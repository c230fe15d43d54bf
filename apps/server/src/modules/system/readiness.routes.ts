import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { type Db, queryRows } from '../../db/client';
import { migrationsFolder } from '../../db/database-template';
import type { Config } from '../../lib/config';
import { Readiness, shippedMigrationCount } from './readiness';

export type { Readiness };

/**
 * The app's readiness: one statement answers both "the database answers" and "it applied every
 * migration this build ships" (drizzle's own record of applied migrations).
 */
export function databaseReadiness(db: Db, config: Config): Readiness {
  return new Readiness(
    async () => {
      const [row] = await queryRows<{ applied: number }>(
        db,
        sql`select count(*)::int as applied from drizzle.__drizzle_migrations`,
      );
      return Number(row?.applied ?? 0);
    },
    shippedMigrationCount(migrationsFolder),
    config.mqttPort !== null || Boolean(config.mqttUrl),
  );
}

/** `/readyz`: 200 when ready; 503 naming the parts that are not, never a stack trace. */
export function registerReadyz(app: FastifyInstance) {
  app.get('/readyz', { config: { public: true } }, async (_request, reply) => {
    const report = await app.readiness.check();
    if (report.ready) return { status: 'ready', checks: report.checks };
    return reply
      .status(503)
      .send({ status: 'unavailable', notReady: report.notReady, checks: report.checks });
  });
}

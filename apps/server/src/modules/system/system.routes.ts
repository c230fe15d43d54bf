import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../lib/config';
import { ok } from '../../lib/envelope';
import { requireCompany, requirePermission } from '../../plugins/auth';
import { issueDataViewTicket } from './tickets.service';

const version = '0.1.0';

export const systemRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, { config }) => {
  /** Liveness and readiness: answers 200 only when the database answers. */
  app.get('/healthz', { config: { public: true } }, async (_request, reply) => {
    try {
      await app.db.execute(sql`select 1`);
      return { status: 'ok', database: app.database.kind };
    } catch {
      return reply.status(503).send({ status: 'unavailable', database: app.database.kind });
    }
  });

  /** What the console needs before login: help address and the sidebar's contact block. */
  app.post('/api/system/clientConfig', { config: { public: true } }, async () =>
    ok({ productName: 'ColdChain', helpUrl: config.helpUrl, contact: config.contact, version }),
  );

  /** The data-screen shortcut: a one-time ticket so the dashboard never carries the session token. */
  app.post('/api/datav/getEncryptionUser', { preHandler: requirePermission('data:view') }, async (request) =>
    ok(await issueDataViewTicket(app.db, request.auth.userId, requireCompany(request.auth))),
  );
};

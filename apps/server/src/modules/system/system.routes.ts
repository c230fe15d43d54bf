import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../lib/config';
import { ok } from '../../lib/envelope';
import { requireCompany, requirePermission } from '../../plugins/auth';
import { Liveness } from './liveness';
import { registerReadyz } from './readiness.routes';
import { issueDataViewTicket } from './tickets.service';

/** The platform's version, as the console and the API document show it. */
export const APP_VERSION = '0.1.0';

/**
 * The broker address devices are told to use: PUBLIC_MQTT_URL when set; otherwise the external
 * broker's address without its credentials (MQTT_URL), or the embedded broker on the host the
 * console was reached at.
 */
export function publicMqttUrl(config: Config, requestHostname: string): string {
  if (config.publicMqttUrl) return config.publicMqttUrl;
  if (config.mqttUrl) {
    const url = new URL(config.mqttUrl);
    url.username = '';
    url.password = '';
    return url.toString().replace(/\/$/, '');
  }
  const host =
    requestHostname.includes(':') && !requestHostname.startsWith('[')
      ? `[${requestHostname}]`
      : requestHostname;
  return `mqtt://${host}:${config.mqttPort ?? 1883}`;
}

export const systemRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, { config }) => {
  /**
   * Liveness and readiness: answers 200 only when the database answered, within the last second
   * (liveness.ts: one probe a second however often it is polled).
   */
  const liveness = new Liveness(() => app.db.execute(sql`select 1`));
  const alive = { status: 'ok', database: app.database.kind };
  const unavailable = { status: 'unavailable', database: app.database.kind };
  app.get('/healthz', { config: { public: true } }, async (_request, reply) => {
    if (await liveness.check()) return alive;
    return reply.status(503).send(unavailable);
  });
  // Readiness adds migrations and the MQTT broker to the database (readiness.ts).
  registerReadyz(app);

  /**
   * What the console needs before login: help address and the sidebar's contact block; plus the
   * map's tile source and the addresses devices connect to (openInterface page).
   */
  app.post('/api/system/clientConfig', { config: { public: true } }, async (request) =>
    ok({
      productName: 'ColdChain',
      helpUrl: config.helpUrl,
      contact: config.contact,
      version: APP_VERSION,
      mapTileUrl: config.mapTileUrl,
      deviceMqttUrl: publicMqttUrl(config, request.hostname),
      deviceHttpUrl: `${request.protocol}://${request.host}/device/v1/up`,
    }),
  );

  /** The data-screen shortcut: a one-time ticket so the dashboard never carries the session token. */
  app.post('/api/datav/getEncryptionUser', { preHandler: requirePermission('data:view') }, async (request) =>
    ok(await issueDataViewTicket(app.db, request.auth.userId, requireCompany(request.auth))),
  );
};

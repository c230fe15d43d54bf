import {
  type AlarmRecordView,
  OpenAlarmsPage,
  OpenAlarmsQuery,
  OpenDevicesPage,
  OpenDevicesQuery,
  type OpenDeviceView,
  OpenReadingsQuery,
  OpenReadingsView,
  OpenSensorParams,
} from '@coldchain/contract';
import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error';
import { ok } from '../../lib/envelope';
import { idFromWire } from '../../lib/ids';
import type { SecretBox } from '../../lib/secret-box';
import { pageAlarms } from '../alarms/alarms.service';
import { pageDevices } from '../devices/device-views';
import { devices, sensors } from '../devices/devices.table';
import { getHistoryData } from '../telemetry/history.service';
import { openCallDocs } from './open-calls.doc';
import { logOpenCall, type OpenCaller, verifyOpenRequest } from './open-signature';

declare module 'fastify' {
  interface FastifyRequest {
    openCaller: OpenCaller;
  }
}

/**
 * The open API under `/open/v1` (API.md "Open API"): signed GET calls of one key, which sees its
 * company's devices opened to it and nothing else. Answers keep the platform's envelope; every
 * call naming a known key lands in that key's usage log with its status and time.
 */
export const openRoutes: FastifyPluginAsyncZod<{
  box: SecretBox;
  ratePerMinute: number;
  mktActivationEnergyKj: number;
}> = async (app, { box, ratePerMinute, mktActivationEnergyKj }) => {
  app.decorateRequest('openCaller', null as unknown as OpenCaller);
  // Before the query is validated: a request that is not signed learns nothing about the call.
  app.addHook('preValidation', async (request, reply) => {
    request.openCaller = await verifyOpenRequest(app.db, box, request, reply, ratePerMinute);
  });
  // An admitted call is in the log from its admission (open-signature.ts, admitCall); its row is
  // finished here, or a refused call's written, before the answer leaves: refused calls count
  // toward the rate too, and written after the answer (onResponse), a client's next call could be
  // counted before it on PostgreSQL, where another pooled connection serves it.
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.openKeyId === undefined) return payload;
    const code = typeof payload === 'string' ? /"msgCode":(\d+)/.exec(payload.slice(0, 40)) : null;
    await logOpenCall(app.db, request.openKeyId, request.openUsageId, {
      method: request.method,
      path: request.url.slice(0, 500),
      httpStatus: reply.statusCode,
      msgCode: code ? Number(code[1]) : reply.statusCode,
      durationMs: Math.round(reply.elapsedTime),
      ip: request.ip ?? '',
    }).catch((err: unknown) => request.log.warn({ err }, 'open API: usage log write failed'));
    return payload;
  });

  // `openApiData` documents the answer only (plugins/openapi-document-open.ts): no `schema.response`,
  // which would make the zod serializer check and re-shape every answer.
  app.get(
    '/open/v1/devices',
    {
      schema: { querystring: OpenDevicesQuery, ...openCallDocs.devices },
      config: { openApiData: OpenDevicesPage },
    },
    async (request) => {
      const page = await pageDevices(app.db, request.openCaller.scope, request.query);
      return ok({
        ...page,
        list: page.list.map(
          (d): OpenDeviceView => ({
            id: d.id,
            serial: d.serial,
            name: d.name,
            state: d.state,
            sensors: d.sensors.map((s) => ({
              id: s.id,
              channel: s.channel,
              name: s.name,
              type: s.type,
              unit: s.unit,
              value: s.value,
              updateTime: s.updateTime,
            })),
          }),
        ),
      });
    },
  );

  app.get(
    '/open/v1/sensors/:sensorId/readings',
    {
      schema: { params: OpenSensorParams, querystring: OpenReadingsQuery, ...openCallDocs.readings },
      config: { openApiData: OpenReadingsView },
    },
    async (request) => {
      // A sensor of a device not opened to the key (or of no device at all): no permission, as API.md says.
      const [opened] = await app.db
        .select({ id: sensors.id })
        .from(sensors)
        .innerJoin(devices, eq(devices.id, sensors.deviceId))
        .where(and(eq(sensors.id, idFromWire(request.params.sensorId) ?? -1), request.openCaller.scope));
      if (!opened) throw new AppError('NO_PERMISSION');
      return ok(
        await getHistoryData(
          app.db,
          request.openCaller.scope,
          { sensorId: request.params.sensorId, ...request.query },
          mktActivationEnergyKj,
        ),
      );
    },
  );

  app.get(
    '/open/v1/alarms',
    {
      schema: { querystring: OpenAlarmsQuery, ...openCallDocs.alarms },
      config: { openApiData: OpenAlarmsPage },
    },
    async (request) => {
      const page = await pageAlarms(
        app.db,
        request.openCaller.companyId,
        request.openCaller.scope,
        request.query,
      );
      return ok({ ...page, list: page.list satisfies AlarmRecordView[] });
    },
  );
};

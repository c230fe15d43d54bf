import {
  AlarmIdRequest,
  AlarmSettingListRequest,
  BatchSaveAlarmSettingRequest,
  ExportAlarmsRequest,
  PageAlarmsRequest,
  ResolveAlarmRequest,
  SaveAlarmSettingRequest,
} from '@coldchain/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendAnswer } from '../../lib/answer-cache';
import { ok } from '../../lib/envelope';
import { actorOf, requireCompany, requirePermission } from '../../plugins/auth';
import { sendDownload } from '../audit/export-file';
import { trackExport } from '../export-progress/export-progress.service';
import { visibleDevices } from '../org/access';
import { exportAlarms } from './alarm-export';
import {
  batchSaveAlarmSetting,
  channelsOf,
  deleteAlarmSetting,
  listAlarmSettings,
  saveAlarmSetting,
} from './alarm-settings.service';
import { getAlarmDetail, pageAlarms, resolveAlarm } from './alarms.service';
import { assertChannelServices } from './remote-alarm';

export const alarmRoutes: FastifyPluginAsyncZod = async (app) => {
  const canView = { preHandler: requirePermission('alarm:view') };
  const canEdit = { preHandler: requirePermission('alarm:edit') };
  const canResolve = { preHandler: requirePermission('alarm:resolve') };

  app.post(
    '/api/deviceAlarmRule/saveAlarmSetting',
    { ...canEdit, schema: { body: SaveAlarmSettingRequest } },
    async (request) => {
      assertChannelServices(request.auth.serviceTags, channelsOf(request.body));
      return ok(await saveAlarmSetting(app.db, actorOf(request), visibleDevices(request.auth), request.body));
    },
  );
  app.post(
    '/api/deviceAlarmRule/batchSaveAlarmSetting',
    { ...canEdit, schema: { body: BatchSaveAlarmSettingRequest } },
    async (request) => {
      assertChannelServices(request.auth.serviceTags, channelsOf(request.body));
      return ok(
        await batchSaveAlarmSetting(app.db, actorOf(request), visibleDevices(request.auth), request.body),
      );
    },
  );
  app.post(
    '/api/deviceAlarmRule/deleteAlarmSetting',
    { ...canEdit, schema: { body: AlarmIdRequest } },
    async (request) => {
      await deleteAlarmSetting(app.db, actorOf(request), visibleDevices(request.auth), request.body.id);
      return ok(null);
    },
  );
  app.post(
    '/api/deviceAlarmRule/alarmList',
    { ...canView, schema: { body: AlarmSettingListRequest } },
    async (request) =>
      ok(
        await listAlarmSettings(
          app.db,
          requireCompany(request.auth),
          visibleDevices(request.auth),
          request.body,
        ),
      ),
  );
  app.post(
    '/api/alarm/pageAlarms',
    { ...canView, schema: { body: PageAlarmsRequest } },
    async (request, reply) =>
      sendAnswer(request, reply, () =>
        pageAlarms(app.db, requireCompany(request.auth), visibleDevices(request.auth), request.body),
      ),
  );
  app.post(
    '/api/alarm/alarmDetail',
    { ...canView, schema: { body: AlarmIdRequest } },
    async (request, reply) =>
      sendAnswer(request, reply, () =>
        getAlarmDetail(app.db, requireCompany(request.auth), visibleDevices(request.auth), request.body.id),
      ),
  );
  app.post(
    '/api/alarm/resolveAlarm',
    { ...canResolve, schema: { body: ResolveAlarmRequest } },
    async (request) =>
      ok(await resolveAlarm(app.db, actorOf(request), visibleDevices(request.auth), request.body)),
  );
  /** The file itself, not an envelope (docs/API.md); refusals still come as envelopes. */
  app.post(
    '/api/alarm/exportAlarms',
    { ...canView, schema: { body: ExportAlarmsRequest } },
    async (request, reply) => {
      const file = await trackExport(app.db, request.auth.userId, request.body.progressId, () =>
        exportAlarms(
          app.db,
          actorOf(request),
          request.auth.userId,
          visibleDevices(request.auth),
          request.body,
          request.language,
        ),
      );
      return sendDownload(reply, file);
    },
  );
};

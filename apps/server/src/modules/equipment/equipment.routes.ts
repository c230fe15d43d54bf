import {
  AddEquipmentRecordRequest,
  EquipmentBatchTransferRequest,
  EquipmentIdRequest,
  EquipmentStatsRequest,
  ExportEquipmentRecordsRequest,
  ExportEquipmentRequest,
  PageEquipmentRecordsRequest,
  PageEquipmentRequest,
  PageEquipmentTypesRequest,
  PagePatrolPlansRequest,
  PagePatrolRoundsRequest,
  SaveEquipmentRequest,
  SaveEquipmentTypeRequest,
  SavePatrolPlanRequest,
} from '@coldchain/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope';
import { actorOf, requirePermission } from '../../plugins/auth';
import { sendDownload } from '../audit/export-file';
import { trackExport } from '../export-progress/export-progress.service';
import type { FileStore } from '../files/store/store';
import { signerOf } from '../signature/signature.service';
import { DEFAULT_ACTIVATION_ENERGY_KJ } from '../telemetry/mkt';
import { equipmentDetail, pageEquipment, saveEquipment, sensorOptions } from './equipment.service';
import { exportEquipment, exportRecords } from './equipment-export';
import {
  deletePatrolPlan,
  pagePatrolPlans,
  pagePatrolRounds,
  savePatrolPlan,
} from './equipment-patrols.service';
import { addRecord, batchTransfer, pageRecords } from './equipment-records.service';
import { equipmentStats } from './equipment-stats.service';
import { deleteType, pageTypes, saveType, typeDetail } from './equipment-types.service';

/** Cold-chain equipment calls (docs/API.md "Equipment"): `equipment:view` reads, `equipment:edit` changes. */
export const equipmentRoutes: FastifyPluginAsyncZod<{
  files: FileStore;
  mktActivationEnergyKj?: number;
}> = async (app, { files, mktActivationEnergyKj = DEFAULT_ACTIVATION_ENERGY_KJ }) => {
  const canView = { preHandler: requirePermission('equipment:view') };
  const canEdit = { preHandler: requirePermission('equipment:edit') };

  app.post(
    '/api/equipmentType/saveType',
    { ...canEdit, schema: { body: SaveEquipmentTypeRequest } },
    async (request) =>
      ok(
        await saveType(app.db, actorOf(request), request.body, { store: files, language: request.language }),
      ),
  );
  app.post(
    '/api/equipmentType/pageTypes',
    { ...canView, schema: { body: PageEquipmentTypesRequest } },
    async (request) => ok(await pageTypes(app.db, request.auth, request.body)),
  );
  app.post(
    '/api/equipmentType/typeDetail',
    { ...canView, schema: { body: EquipmentIdRequest } },
    async (request) => ok(await typeDetail(app.db, request.auth, request.body.id)),
  );
  app.post(
    '/api/equipmentType/deleteType',
    { ...canEdit, schema: { body: EquipmentIdRequest } },
    async (request) => {
      await deleteType(app.db, actorOf(request), request.body.id);
      return ok(null);
    },
  );

  app.post(
    '/api/equipment/saveEquipment',
    { ...canEdit, schema: { body: SaveEquipmentRequest } },
    async (request) =>
      ok(
        await saveEquipment(app.db, actorOf(request), request.auth, request.body, {
          store: files,
          language: request.language,
        }),
      ),
  );
  app.post(
    '/api/equipment/pageEquipment',
    { ...canView, schema: { body: PageEquipmentRequest } },
    async (request) => ok(await pageEquipment(app.db, request.auth, request.body)),
  );
  app.post(
    '/api/equipment/equipmentDetail',
    { ...canView, schema: { body: EquipmentIdRequest } },
    async (request) => ok(await equipmentDetail(app.db, request.auth, request.body.id, request.language)),
  );
  app.post('/api/equipment/sensorOptions', canEdit, async (request) =>
    ok(await sensorOptions(app.db, request.auth)),
  );
  app.post(
    '/api/equipment/batchTransfer',
    { ...canEdit, schema: { body: EquipmentBatchTransferRequest } },
    async (request) => ok(await batchTransfer(app.db, actorOf(request), request.auth, request.body)),
  );
  app.post(
    '/api/equipment/addRecord',
    { ...canEdit, schema: { body: AddEquipmentRecordRequest } },
    async (request) =>
      ok(
        await addRecord(app.db, actorOf(request), request.auth, signerOf(request), request.body, {
          store: files,
          language: request.language,
        }),
      ),
  );
  app.post(
    '/api/equipment/pageRecords',
    { ...canView, schema: { body: PageEquipmentRecordsRequest } },
    async (request) => ok(await pageRecords(app.db, request.auth, request.body)),
  );

  app.post(
    '/api/equipment/equipmentStats',
    { ...canView, schema: { body: EquipmentStatsRequest } },
    async (request) => ok(await equipmentStats(app.db, request.auth, request.body, mktActivationEnergyKj)),
  );

  app.post(
    '/api/equipment/exportEquipment',
    { ...canView, schema: { body: ExportEquipmentRequest } },
    async (request, reply) =>
      sendDownload(
        reply,
        await trackExport(app.db, request.auth.userId, request.body.progressId, () =>
          exportEquipment(
            app.db,
            actorOf(request),
            request.auth,
            signerOf(request),
            request.body,
            request.language,
          ),
        ),
      ),
  );
  app.post(
    '/api/equipment/exportRecords',
    { ...canView, schema: { body: ExportEquipmentRecordsRequest } },
    async (request, reply) =>
      sendDownload(
        reply,
        await trackExport(app.db, request.auth.userId, request.body.progressId, () =>
          exportRecords(
            app.db,
            actorOf(request),
            request.auth,
            signerOf(request),
            request.body,
            request.language,
          ),
        ),
      ),
  );

  app.post(
    '/api/equipment/savePatrolPlan',
    { ...canEdit, schema: { body: SavePatrolPlanRequest } },
    async (request) => ok(await savePatrolPlan(app.db, actorOf(request), request.auth, request.body)),
  );
  app.post(
    '/api/equipment/deletePatrolPlan',
    { ...canEdit, schema: { body: EquipmentIdRequest } },
    async (request) => {
      await deletePatrolPlan(app.db, actorOf(request), request.auth, request.body.id);
      return ok(null);
    },
  );
  app.post(
    '/api/equipment/pagePatrolPlans',
    { ...canView, schema: { body: PagePatrolPlansRequest } },
    async (request) => ok(await pagePatrolPlans(app.db, request.auth, request.body)),
  );
  app.post(
    '/api/equipment/pagePatrolRounds',
    { ...canView, schema: { body: PagePatrolRoundsRequest } },
    async (request) => ok(await pagePatrolRounds(app.db, request.auth, request.body)),
  );
};

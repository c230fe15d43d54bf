import { EquipmentReportRequest, SensorReportRequest, VerifyReportRequest } from '@coldchain/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope';
import { actorOf, requireCompany, requirePermission } from '../../plugins/auth';
import { sendDownload } from '../audit/export-file';
import type { FileStore } from '../files/store/store';
import { visibleDevices } from '../org/access';
import { signerOf } from '../signature/signature.service';
import { generateEquipmentReport } from './equipment-report';
import { verifyReport } from './report-files.service';
import { generateSensorReport } from './sensor-report';

/**
 * Report calls (docs/API.md "Reports"). A sensor report is data taken out, so it needs
 * `device:export` and sees only the devices the caller sees (as historyData); checking a printed
 * report's fingerprint needs `report:view` and finds the company's own files only.
 */
export const reportRoutes: FastifyPluginAsyncZod<{
  files: FileStore;
  mktActivationEnergyKj: number;
}> = async (app, options) => {
  app.post(
    '/api/report/sensorReport',
    { preHandler: requirePermission('device:export'), schema: { body: SensorReportRequest } },
    async (request, reply) => {
      const report = await generateSensorReport(
        app.db,
        { files: options.files, activationEnergyKj: options.mktActivationEnergyKj },
        signerOf(request),
        actorOf(request),
        visibleDevices(request.auth),
        request.body,
        request.language,
      );
      return sendDownload(reply, {
        body: report.bytes,
        filename: report.fileName,
        contentType: 'application/pdf',
        fingerprint: report.fingerprint,
      });
    },
  );
  app.post(
    '/api/report/equipmentReport',
    {
      preHandler: [requirePermission('equipment:view'), requirePermission('device:export')],
      schema: { body: EquipmentReportRequest },
    },
    async (request, reply) => {
      const report = await generateEquipmentReport(
        app.db,
        { files: options.files, activationEnergyKj: options.mktActivationEnergyKj },
        signerOf(request),
        actorOf(request),
        request.auth,
        visibleDevices(request.auth),
        request.body,
        request.language,
      );
      return sendDownload(reply, {
        body: report.bytes,
        filename: report.fileName,
        contentType: 'application/pdf',
        fingerprint: report.fingerprint,
      });
    },
  );
  app.post(
    '/api/report/verifyReport',
    { preHandler: requirePermission('report:view'), schema: { body: VerifyReportRequest } },
    async (request) => ok(await verifyReport(app.db, requireCompany(request.auth), request.body.sha256)),
  );
};

import {
  AddDeviceRequest,
  BatchPermissionRequest,
  BatchTransferRequest,
  DeviceIdRequest,
  DevicePermissionsRequest,
  EditDeviceRequest,
  EditSensorRequest,
  ExportDataRequest,
  HistoryDataRequest,
  PageDevicesRequest,
  SetRemarkRequest,
} from '@coldchain/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendAnswer } from '../../lib/answer-cache';
import { ok } from '../../lib/envelope';
import { idFromWire, idToWire } from '../../lib/ids';
import { type Auth, actorOf, requirePermission } from '../../plugins/auth';
import { sendDownload } from '../audit/export-file';
import { trackExport } from '../export-progress/export-progress.service';
import { assertGroupFitsDevice, rootDepartmentId } from '../groups/groups.service';
import { assertDepartmentInScope, editableDevices, visibleDevices, wholeCompanyOf } from '../org/access';
import { authorizeExport, signerOf } from '../signature/signature.service';
import { getHistoryData } from '../telemetry/history.service';
import { editDevice, editDeviceInPlace } from './device-edit.service';
import { exportDeviceData } from './device-export';
import { type DeviceEditability, getDeviceDetail, pageDevices } from './device-views';
import {
  addDevice,
  countDevicesByState,
  findDevice,
  resetDeviceKey,
  setDeviceRemark,
} from './devices.service';
import { batchPermission, batchTransfer, listDevicePermissions } from './devices-batch.service';
import { editSensor } from './sensor-edit.service';
import { mapEquipment } from './sensor-equipment';

/**
 * Which devices of a view the caller may change (marks `editable`): none without the edit tag, all
 * of them when their scope is the whole company (what they see is what they may change, and the
 * list need not ask per row), else per row.
 */
function editScopeOf(auth: Auth): DeviceEditability {
  if (!auth.authTags.has('device:edit')) return false;
  return auth.scopePath === null ? true : editableDevices(auth);
}

export const deviceRoutes: FastifyPluginAsyncZod<{ mktActivationEnergyKj: number }> = async (
  app,
  { mktActivationEnergyKj },
) => {
  const canView = { preHandler: requirePermission('device:view') };
  const canEdit = { preHandler: requirePermission('device:edit') };

  app.post('/api/device/addDevice', { ...canEdit, schema: { body: AddDeviceRequest } }, async (request) => {
    const { auth } = request;
    await assertDepartmentInScope(app.db, auth, request.body.departmentId);
    // Without a department, a device goes to the caller's own one, so that they can still see it,
    // or, for a caller who sees the whole company, to the top department: every device added is
    // held by a department, and the departments' counts add up to the home page's total.
    const ownDepartment =
      auth.scopePath !== null ? auth.departmentId : await rootDepartmentId(app.db, auth.companyId!);
    const departmentId = request.body.departmentId || (ownDepartment ? idToWire(ownDepartment) : undefined);
    const groupId = idFromWire(request.body.groupId);
    if (groupId) await assertGroupFitsDevice(app.db, auth.companyId!, groupId, idFromWire(departmentId));
    return ok(await addDevice(app.db, actorOf(request), { ...request.body, departmentId }));
  });
  app.post(
    '/api/device/deviceDetail',
    { ...canView, schema: { body: DeviceIdRequest } },
    async (request, reply) =>
      sendAnswer(request, reply, () =>
        getDeviceDetail(app.db, visibleDevices(request.auth), request.body.id, editScopeOf(request.auth)),
      ),
  );
  // The map mode's equipment beside the monitors: equipment rights and scope, not device ones.
  app.post('/api/device/mapEquipment', { preHandler: requirePermission('equipment:view') }, async (request) =>
    ok(await mapEquipment(app.db, request.auth)),
  );
  app.post('/api/device/resetDeviceKey', { ...canEdit, schema: { body: DeviceIdRequest } }, async (request) =>
    ok(await resetDeviceKey(app.db, actorOf(request), editableDevices(request.auth), request.body.id)),
  );
  app.post(
    '/api/device/pageDevices',
    { ...canView, schema: { body: PageDevicesRequest } },
    async (request, reply) =>
      sendAnswer(request, reply, () =>
        pageDevices(app.db, visibleDevices(request.auth), request.body, editScopeOf(request.auth)),
      ),
  );
  app.post(
    '/api/device/pageDevicesByState',
    { ...canView, schema: { body: PageDevicesRequest } },
    async (request) =>
      ok(await pageDevices(app.db, visibleDevices(request.auth), request.body, editScopeOf(request.auth))),
  );
  app.post('/api/device/countGroupByState', canView, async (request) =>
    ok(await countDevicesByState(app.db, visibleDevices(request.auth))),
  );
  app.post('/api/device/editDevice', { ...canEdit, schema: { body: EditDeviceRequest } }, async (request) => {
    const { auth, body } = request;
    const scope = editableDevices(auth);
    // A whole-company caller's edit that sends the device's place is tried in one statement,
    // which edits only if that place is the device's own (nothing to check then); one that moves
    // the device comes back and goes the way below.
    if (
      wholeCompanyOf(scope) === auth.companyId &&
      body.departmentId !== undefined &&
      body.groupId !== undefined
    ) {
      const edited = await editDeviceInPlace(app.db, actorOf(request), {
        ...body,
        departmentId: body.departmentId,
        groupId: body.groupId,
      });
      if (edited) return ok(edited);
    }
    const device = await findDevice(app.db, scope, body.id);
    const departmentId =
      body.departmentId !== undefined ? idFromWire(body.departmentId) : device.departmentId;
    const groupId = body.groupId !== undefined ? idFromWire(body.groupId) : device.groupId;
    // Most edits keep the device where it is (the form sends its department and group back):
    // what it is in already needs no check when the caller's scope is the whole company. A
    // department member's scope may not hold the department of a device granted to them.
    const keepsPlace = departmentId === device.departmentId && groupId === device.groupId;
    if (!keepsPlace || auth.scopePath !== null)
      await assertDepartmentInScope(app.db, auth, body.departmentId);
    // A device's group lies in its department: an explicit group must fit the (new) department;
    // a department change without a group drops a group that no longer fits.
    let placement = { departmentId, groupId };
    if (groupId && !keepsPlace) {
      try {
        await assertGroupFitsDevice(app.db, auth.companyId!, groupId, departmentId);
      } catch (error) {
        if (body.groupId !== undefined) throw error;
        placement = { departmentId, groupId: null };
      }
    }
    return ok(await editDevice(app.db, actorOf(request), device, body, placement));
  });
  app.post('/api/device/setRemark', { ...canEdit, schema: { body: SetRemarkRequest } }, async (request) => {
    await setDeviceRemark(
      app.db,
      actorOf(request),
      editableDevices(request.auth),
      request.body.id,
      request.body.remark,
    );
    return ok(null);
  });
  app.post('/api/device/editSensor', { ...canEdit, schema: { body: EditSensorRequest } }, async (request) =>
    ok(await editSensor(app.db, actorOf(request), editableDevices(request.auth), request.body)),
  );
  app.post(
    '/api/device/historyData',
    { ...canView, schema: { body: HistoryDataRequest } },
    async (request, reply) =>
      sendAnswer(request, reply, () =>
        getHistoryData(
          app.db,
          visibleDevices(request.auth),
          request.body,
          request.body.activationEnergy ?? mktActivationEnergyKj,
        ),
      ),
  );

  app.post(
    '/api/device/batchTransfer',
    { ...canEdit, schema: { body: BatchTransferRequest } },
    async (request) =>
      ok(
        await batchTransfer(
          app.db,
          actorOf(request),
          request.auth,
          editableDevices(request.auth),
          request.body,
        ),
      ),
  );
  app.post(
    '/api/device/batchPermission',
    { ...canEdit, schema: { body: BatchPermissionRequest } },
    async (request) =>
      ok(
        await batchPermission(
          app.db,
          actorOf(request),
          request.auth,
          editableDevices(request.auth),
          request.body,
        ),
      ),
  );
  app.post(
    '/api/device/devicePermissions',
    { ...canView, schema: { body: DevicePermissionsRequest } },
    async (request) =>
      ok(await listDevicePermissions(app.db, visibleDevices(request.auth), request.body.deviceId)),
  );
  /** A raw file with a filename header (spec section 8: file responses are returned whole). */
  app.post(
    '/api/device/exportData',
    { preHandler: requirePermission('device:export'), schema: { body: ExportDataRequest } },
    async (request, reply) => {
      const actor = actorOf(request);
      // The export flag and the company's audit signature come before any data is read.
      const signature = await authorizeExport(app.db, signerOf(request), request.body.signPassword);
      const file = await trackExport(app.db, request.auth.userId, request.body.progressId, () =>
        exportDeviceData(
          app.db,
          actor,
          visibleDevices(request.auth),
          request.body,
          request.language,
          signature,
        ),
      );
      return sendDownload(reply, file);
    },
  );
};

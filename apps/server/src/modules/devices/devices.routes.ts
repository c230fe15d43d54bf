import {
  AddDeviceRequest,
  DeviceIdRequest,
  EditDeviceRequest,
  HistoryDataRequest,
  PageDevicesRequest,
  SetRemarkRequest,
} from '@coldchain/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope';
import { idToWire } from '../../lib/ids';
import { actorOf, requirePermission } from '../../plugins/auth';
import { assertDepartmentInScope, editableDevices, visibleDevices } from '../org/access';
import { getHistoryData } from '../telemetry/history.service';
import {
  addDevice,
  countDevicesByState,
  editDevice,
  getDeviceDetail,
  pageDevices,
  resetDeviceKey,
  setDeviceRemark,
} from './devices.service';

export const deviceRoutes: FastifyPluginAsyncZod = async (app) => {
  const canView = { preHandler: requirePermission('device:view') };
  const canEdit = { preHandler: requirePermission('device:edit') };

  app.post('/api/device/addDevice', { ...canEdit, schema: { body: AddDeviceRequest } }, async (request) => {
    const { auth } = request;
    await assertDepartmentInScope(app.db, auth, request.body.departmentId);
    // Without a department, a device goes to the caller's own one, so that they can still see it.
    const departmentId =
      request.body.departmentId ||
      (auth.scopePath !== null && auth.departmentId ? idToWire(auth.departmentId) : undefined);
    return ok(await addDevice(app.db, actorOf(request), { ...request.body, departmentId }));
  });
  app.post('/api/device/deviceDetail', { ...canView, schema: { body: DeviceIdRequest } }, async (request) =>
    ok(await getDeviceDetail(app.db, visibleDevices(request.auth), request.body.id)),
  );
  app.post('/api/device/resetDeviceKey', { ...canEdit, schema: { body: DeviceIdRequest } }, async (request) =>
    ok(await resetDeviceKey(app.db, actorOf(request), editableDevices(request.auth), request.body.id)),
  );
  app.post('/api/device/pageDevices', { ...canView, schema: { body: PageDevicesRequest } }, async (request) =>
    ok(await pageDevices(app.db, visibleDevices(request.auth), request.body)),
  );
  app.post(
    '/api/device/pageDevicesByState',
    { ...canView, schema: { body: PageDevicesRequest } },
    async (request) => ok(await pageDevices(app.db, visibleDevices(request.auth), request.body)),
  );
  app.post('/api/device/countGroupByState', canView, async (request) =>
    ok(await countDevicesByState(app.db, visibleDevices(request.auth))),
  );
  app.post('/api/device/editDevice', { ...canEdit, schema: { body: EditDeviceRequest } }, async (request) => {
    await assertDepartmentInScope(app.db, request.auth, request.body.departmentId);
    return ok(await editDevice(app.db, actorOf(request), editableDevices(request.auth), request.body));
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
  app.post('/api/device/historyData', { ...canView, schema: { body: HistoryDataRequest } }, async (request) =>
    ok(await getHistoryData(app.db, visibleDevices(request.auth), request.body)),
  );
};

import type {
  CameraView,
  LiveAddress,
  Page,
  PageCamerasRequest,
  SaveCameraRequest,
} from '@coldchain/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { type Db, type Queryable, queryRows } from '../../db/client';
import { pageOf, whenGiven } from '../../db/page-query';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { type Actor, recordAudit } from '../audit/audit.service';
import { devices } from '../devices/devices.table';
import { equipment } from '../equipment/equipment.table';
import { equipmentInScope } from '../equipment/equipment-access';
import { assertDepartmentInScope, assertDevicesVisible } from '../org/access';
import { departments } from '../org/org.table';
import { cameraDevices, cameraEquipment, cameraPlatformAccounts, cameras as t } from './camera.table';
import { type CameraRow, cameraOf, camerasInScope, platformAccountOf } from './camera-access';
import { askPlatform, type CameraDeps, platformCameraOf } from './camera-context';

function idsOf(wire: string[] | undefined): number[] {
  return [...new Set((wire ?? []).map((id) => idFromWire(id) ?? -1))];
}

/** Every piece of equipment must be one the caller sees; else "does not exist", as for monitors. */
async function assertEquipmentVisible(db: Queryable, auth: Auth, ids: number[]) {
  if (ids.length === 0) return;
  const seen = await db
    .select({ id: equipment.id })
    .from(equipment)
    .where(and(inArray(equipment.id, ids), equipmentInScope(auth)));
  if (seen.length !== ids.length) throw new AppError('EQUIPMENT_NOT_FOUND');
}

function audited(row: Partial<CameraRow>, equipmentIds?: number[], deviceIds?: number[]) {
  const { name, serial, type, channel, streamUrl, departmentId, platformAccountId } = row;
  return { name, serial, type, channel, streamUrl, departmentId, platformAccountId, equipmentIds, deviceIds };
}

/** `/api/camera/saveCamera`: adds, or edits the camera `id`; what it watches is replaced when given. */
export async function saveCamera(
  db: Db,
  actor: Actor,
  auth: Auth,
  input: SaveCameraRequest,
): Promise<{ id: string }> {
  return db.transaction(async (tx) => {
    const account = await platformAccountOf(tx, actor.companyId, input.platformAccountId);
    const streamUrl = account.platform === 'direct' ? (input.streamUrl ?? '') : '';
    if (account.platform === 'direct' && !streamUrl) throw new AppError('CAMERA_STREAM_REQUIRED');
    const departmentId =
      input.departmentId === undefined
        ? undefined
        : ((await assertDepartmentInScope(tx, auth, input.departmentId)) ??
          (auth.scopePath === null ? null : auth.departmentId));
    const equipmentIds = input.equipmentIds === undefined ? undefined : idsOf(input.equipmentIds);
    const deviceIds = input.deviceIds === undefined ? undefined : idsOf(input.deviceIds);
    if (equipmentIds) await assertEquipmentVisible(tx, auth, equipmentIds);
    if (deviceIds) await assertDevicesVisible(tx, auth, deviceIds);
    const fields = {
      name: input.name,
      serial: input.serial,
      type: input.type ?? '',
      channel: input.channel ?? 1,
      streamUrl,
      platformAccountId: account.id,
      ...(departmentId === undefined ? {} : { departmentId }),
    };
    const duplicate = await tx
      .select({ id: t.id })
      .from(t)
      .where(
        and(eq(t.platformAccountId, account.id), eq(t.serial, fields.serial), eq(t.channel, fields.channel)),
      );
    const id = input.id ? idFromWire(input.id) : null;
    if (duplicate.some((d) => d.id !== id)) throw new AppError('CAMERA_EXISTS');

    let before: CameraRow | null = null;
    let saved: CameraRow;
    if (input.id) {
      before = await cameraOf(tx, auth, input.id, true);
      [saved] = (await tx
        .update(t)
        .set({ ...fields, updatedAt: new Date() })
        .where(eq(t.id, before.id))
        .returning()) as [CameraRow];
    } else {
      [saved] = (await tx
        .insert(t)
        .values({
          departmentId: auth.scopePath === null ? null : auth.departmentId,
          ...fields,
          companyId: actor.companyId,
          createdBy: actor.userId,
        })
        .returning()) as [CameraRow];
    }
    if (equipmentIds) {
      await tx.delete(cameraEquipment).where(eq(cameraEquipment.cameraId, saved.id));
      if (equipmentIds.length)
        await tx
          .insert(cameraEquipment)
          .values(equipmentIds.map((equipmentId) => ({ cameraId: saved.id, equipmentId })));
    }
    if (deviceIds) {
      await tx.delete(cameraDevices).where(eq(cameraDevices.cameraId, saved.id));
      if (deviceIds.length)
        await tx
          .insert(cameraDevices)
          .values(deviceIds.map((deviceId) => ({ cameraId: saved.id, deviceId })));
    }
    await recordAudit(tx, actor, {
      action: before ? 'camera.edit' : 'camera.add',
      targetType: 'camera',
      targetId: String(saved.id),
      before: before ? audited(before) : undefined,
      after: audited(saved, equipmentIds, deviceIds),
    });
    return { id: idToWire(saved.id) };
  });
}

/** `/api/camera/deleteCamera`. */
export async function deleteCamera(db: Db, actor: Actor, auth: Auth, wireId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await cameraOf(tx, auth, wireId, true);
    await tx.delete(t).where(eq(t.id, row.id));
    await recordAudit(tx, actor, {
      action: 'camera.delete',
      targetType: 'camera',
      targetId: String(row.id),
      before: audited(row),
    });
  });
}

/** One camera as a JSON value with its account, department and what it watches (one statement). */
const cameraRow = sql`json_build_object(
  'id', ${t.id}, 'name', ${t.name}, 'serial', ${t.serial}, 'type', ${t.type}, 'channel', ${t.channel},
  'streamUrl', ${t.streamUrl}, 'departmentId', ${t.departmentId}, 'online', ${t.online},
  'onlineCheckedAt', ${t.onlineCheckedAt}, 'createdAt', ${t.createdAt}, 'platformAccountId', ${t.platformAccountId},
  'platform', (select a.platform from ${cameraPlatformAccounts} a where a.id = ${t.platformAccountId}),
  'platformAccountName', (select a.name from ${cameraPlatformAccounts} a where a.id = ${t.platformAccountId}),
  'departmentName', (select d.name from ${departments} d where d.id = ${t.departmentId}),
  'equipment', coalesce((select json_agg(json_build_object('id', e.id, 'name', e.name) order by e.name, e.id)
    from ${cameraEquipment} ce join ${equipment} e on e.id = ce.equipment_id where ce.camera_id = ${t.id}), '[]'::json),
  'devices', coalesce((select json_agg(json_build_object('id', v.id, 'name', v.name, 'serial', v.serial) order by v.name, v.id)
    from ${cameraDevices} cd join ${devices} v on v.id = cd.device_id where cd.camera_id = ${t.id}), '[]'::json))`;

interface RawCamera {
  id: number;
  name: string;
  serial: string;
  type: string;
  channel: number;
  streamUrl: string;
  departmentId: number | null;
  online: boolean | null;
  onlineCheckedAt: string | null;
  createdAt: string;
  platformAccountId: number;
  platform: CameraView['platform'];
  platformAccountName: string;
  departmentName: string | null;
  equipment: { id: number; name: string }[];
  devices: { id: number; name: string; serial: string }[];
}

function presentCamera(raw: RawCamera): CameraView {
  return {
    id: idToWire(raw.id),
    name: raw.name,
    serial: raw.serial,
    type: raw.type,
    platform: raw.platform,
    platformAccountId: idToWire(raw.platformAccountId),
    platformAccountName: raw.platformAccountName,
    channel: raw.channel,
    streamUrl: raw.streamUrl,
    departmentId: raw.departmentId === null ? null : idToWire(raw.departmentId),
    departmentName: raw.departmentName,
    online: raw.online,
    onlineCheckTime: raw.onlineCheckedAt ? new Date(raw.onlineCheckedAt).getTime() : null,
    equipment: raw.equipment.map((e) => ({ id: idToWire(e.id), name: e.name })),
    devices: raw.devices.map((d) => ({ id: idToWire(d.id), name: d.name, serial: d.serial })),
    createTime: new Date(raw.createdAt).getTime(),
  };
}

const likeOf = (text: string | undefined) => (text ? text.replace(/[\\%_]/g, (c) => `\\${c}`) : null);

/** `/api/camera/pageCameras`: the cameras the caller may see, by name; one statement. */
export async function pageCameras(db: Db, auth: Auth, query: PageCamerasRequest): Promise<Page<CameraView>> {
  const keyword = likeOf(query.keyword);
  const where = and(
    camerasInScope(auth),
    whenGiven(
      keyword,
      'text',
      (v) => sql`(${t.name} ilike '%' || ${v} || '%' or ${t.serial} ilike '%' || ${v} || '%')`,
    ),
    whenGiven(
      query.platformAccountId ? idFromWire(query.platformAccountId) : null,
      'bigint',
      (v) => sql`${t.platformAccountId} = ${v}`,
    ),
    whenGiven(
      query.online === undefined ? null : String(query.online),
      'text',
      (v) => sql`coalesce(${t.online}, false)::text = ${v}`,
    ),
  );
  return pageOf(
    db,
    { row: cameraRow, from: t, where, orderBy: sql`${t.name}, ${t.id}` },
    query,
    presentCamera,
  );
}

/** `/api/camera/cameraDetail`: one camera the caller may see, one statement. */
export async function cameraDetail(db: Db, auth: Auth, wireId: string): Promise<CameraView> {
  const id = idFromWire(wireId);
  const [row] = id
    ? await queryRows<{ row: RawCamera | string }>(
        db,
        sql`select ${cameraRow} as row from ${t} where ${t.id} = ${id} and ${camerasInScope(auth)}`,
      )
    : [];
  if (!row) throw new AppError('CAMERA_NOT_FOUND');
  return presentCamera(typeof row.row === 'string' ? (JSON.parse(row.row) as RawCamera) : row.row);
}

/**
 * `/api/camera/liveAddress`: where the browser plays the camera now. The platform is asked each
 * time (EZVIZ hands out addresses that expire); its refusal is the message, and marks it offline.
 */
export async function liveAddress(deps: CameraDeps, auth: Auth, wireId: string): Promise<LiveAddress> {
  const camera = await cameraOf(deps.db, auth, wireId);
  const account = await platformAccountOf(deps.db, camera.companyId, camera.platformAccountId);
  try {
    const live = await askPlatform(deps, account, (ctx, adapter) =>
      adapter.liveAddress(ctx, platformCameraOf(camera)),
    );
    await markOnline(deps, camera.id, true);
    return { url: live.url, protocol: 'hls', expireTime: live.expireTime };
  } catch (error) {
    if (error instanceof AppError && error.code === 'CAMERA_PLATFORM_REFUSED')
      await markOnline(deps, camera.id, false);
    throw error;
  }
}

async function markOnline(deps: CameraDeps, cameraId: number, online: boolean) {
  await deps.db.update(t).set({ online, onlineCheckedAt: deps.now() }).where(eq(t.id, cameraId));
}

import type { BatchPermissionRequest, BatchTransferRequest, DevicePermissionView } from '@coldchain/contract';
import { and, asc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { type Actor, recordAudit } from '../audit/audit.service';
import { companyMembers } from '../companies/companies.table';
import { deviceGroups } from '../groups/groups.table';
import { assertDepartmentInScope, departmentScope } from '../org/access';
import { departments, devicePermissions } from '../org/org.table';
import { users } from '../users/users.table';
import { devices } from './devices.table';

/**
 * Every device of a selection, if `scope` admits them all; otherwise "the device does not exist"
 * and nothing changes (a batch is all or nothing, so a foreign id cannot slip through).
 */
export async function selectedDevices(db: Queryable, scope: SQL, wireIds: string[]) {
  const ids = [...new Set(wireIds.map((id) => idFromWire(id)))];
  if (ids.some((id) => id === null)) throw new AppError('DEVICE_NOT_FOUND');
  const rows = await db
    .select()
    .from(devices)
    .where(and(scope, inArray(devices.id, ids as number[])))
    .orderBy(asc(devices.name), asc(devices.id));
  if (rows.length !== ids.length) throw new AppError('DEVICE_NOT_FOUND');
  return rows;
}

/**
 * `/api/device/batchTransfer`: moves devices to a department of the caller's scope. With a group,
 * they join it (it must belong to that department); without one, each keeps its group only if
 * the group is of the target department, since a device's group lies in its department.
 */
export async function batchTransfer(
  db: Db,
  actor: Actor,
  auth: Auth,
  editable: SQL,
  input: BatchTransferRequest,
): Promise<{ count: number }> {
  const rows = await selectedDevices(db, editable, input.deviceIds);
  const departmentId = (await assertDepartmentInScope(db, auth, input.departmentId))!;
  const groupId = idFromWire(input.groupId);
  if (groupId) {
    const [group] = await db
      .select({ departmentId: deviceGroups.departmentId })
      .from(deviceGroups)
      .where(and(eq(deviceGroups.id, groupId), eq(deviceGroups.companyId, actor.companyId)));
    if (!group) throw new AppError('GROUP_NOT_FOUND');
    if (group.departmentId !== departmentId) throw new AppError('GROUP_NOT_IN_DEPARTMENT');
  }
  const currentGroups = rows.flatMap((d) => (d.groupId ? [d.groupId] : []));
  const groupsInTarget = new Set(
    currentGroups.length
      ? (
          await db
            .select({ id: deviceGroups.id })
            .from(deviceGroups)
            .where(and(eq(deviceGroups.departmentId, departmentId), inArray(deviceGroups.id, currentGroups)))
        ).map((g) => g.id)
      : [],
  );
  await db.transaction(async (tx) => {
    for (const device of rows) {
      const nextGroup =
        groupId ?? (device.groupId && groupsInTarget.has(device.groupId) ? device.groupId : null);
      await tx.update(devices).set({ departmentId, groupId: nextGroup }).where(eq(devices.id, device.id));
      await recordAudit(tx, actor, {
        action: 'device.transfer',
        targetType: 'device',
        targetId: device.id,
        before: { departmentId: device.departmentId, groupId: device.groupId },
        after: { departmentId, groupId: nextGroup },
      });
    }
  });
  return { count: rows.length };
}

/**
 * `/api/device/batchPermission`: per-user rights on devices (spec section 6, view or edit), on top
 * of what the person's department and role allow. `none` removes the grant. Only people of the
 * caller's departments may be given rights, so nobody hands out rights beyond their own reach.
 */
export async function batchPermission(
  db: Db,
  actor: Actor,
  auth: Auth,
  editable: SQL,
  input: BatchPermissionRequest,
): Promise<{ count: number }> {
  const rows = await selectedDevices(db, editable, input.deviceIds);
  const userIds = [...new Set(input.userIds.map((id) => idFromWire(id)))];
  if (userIds.some((id) => id === null)) throw new AppError('PERMISSION_USER_OUT_OF_SCOPE');
  const members = await db
    .select({ userId: companyMembers.userId })
    .from(companyMembers)
    .innerJoin(departments, eq(departments.id, companyMembers.departmentId))
    .where(
      and(
        eq(companyMembers.companyId, actor.companyId),
        departmentScope(auth),
        inArray(companyMembers.userId, userIds as number[]),
      ),
    );
  if (members.length !== userIds.length) throw new AppError('PERMISSION_USER_OUT_OF_SCOPE');
  const deviceIds = rows.map((d) => d.id);
  await db.transaction(async (tx) => {
    if (input.permission === 'none') {
      await tx
        .delete(devicePermissions)
        .where(
          and(
            eq(devicePermissions.companyId, actor.companyId),
            inArray(devicePermissions.deviceId, deviceIds),
            inArray(devicePermissions.userId, userIds as number[]),
          ),
        );
    } else {
      const canEdit = input.permission === 'edit';
      await tx
        .insert(devicePermissions)
        .values(
          deviceIds.flatMap((deviceId) =>
            (userIds as number[]).map((userId) => ({
              companyId: actor.companyId,
              userId,
              deviceId,
              canEdit,
            })),
          ),
        )
        .onConflictDoUpdate({
          target: [devicePermissions.userId, devicePermissions.deviceId],
          set: { canEdit },
        });
    }
    for (const deviceId of deviceIds)
      await recordAudit(tx, actor, {
        action: 'device.permission',
        targetType: 'device',
        targetId: deviceId,
        after: { userIds, permission: input.permission },
      });
  });
  return { count: deviceIds.length };
}

/** `/api/device/devicePermissions`: who holds a per-user right on the device, and which. */
export async function listDevicePermissions(
  db: Db,
  visible: SQL,
  deviceWireId: string,
): Promise<DevicePermissionView[]> {
  const [device] = await selectedDevices(db, visible, [deviceWireId]);
  const rows = await db
    .select({
      userId: devicePermissions.userId,
      canEdit: devicePermissions.canEdit,
      name: users.name,
      account: users.account,
    })
    .from(devicePermissions)
    .innerJoin(users, eq(users.id, devicePermissions.userId))
    .innerJoin(
      companyMembers,
      and(
        eq(companyMembers.userId, devicePermissions.userId),
        eq(companyMembers.companyId, devicePermissions.companyId),
      ),
    )
    .where(eq(devicePermissions.deviceId, device!.id))
    .orderBy(asc(users.name), asc(users.id));
  return rows.map((r) => ({
    userId: idToWire(r.userId),
    name: r.name,
    account: r.account,
    permission: r.canEdit ? 'edit' : 'view',
  }));
}

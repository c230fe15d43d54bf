import type { TransferLeaderRequest } from '@coldchain/contract';
import { and, eq, inArray, like, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { idFromWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { alarmSettings } from '../alarms/alarms.table';
import { type Actor, recordAudit } from '../audit/audit.service';
import { companyMembers } from '../companies/companies.table';
import { devices } from '../devices/devices.table';
import { assertMemberInScope, departmentInScope, installLeader } from './departments.service';
import { departments, devicePermissions } from './org.table';
import { invalidateDepartmentNotices } from './org-notices';

/**
 * Spec section 4: "the former holder leaves the department and loses related settings and
 * notifications". Concretely (docs/decisions.md, "Transfer of the person in charge"), in one
 * transaction:
 * - the new person in charge moves into the department holding its department administrator role;
 * - the former one moves to the parent department without a role (for the root department they
 *   stay in it, without a role; a company administrator keeps that flag, which is managed apart);
 * - the former one is taken off the notifier lists of alarm settings of the department's devices
 *   (the department and everything below), loses their per-user grants on those devices, and
 *   their unread notices about those departments become invalid.
 */
export async function transferLeader(db: Db, auth: Auth, actor: Actor, input: TransferLeaderRequest) {
  const department = await departmentInScope(db, auth, input.id);
  const newLeader = await assertMemberInScope(db, auth, idFromWire(input.userId));
  const former = department.leaderUserId;
  if (former === newLeader) throw new AppError('LEADER_ALREADY');

  await db.transaction(async (tx) => {
    await installLeader(tx, department, newLeader);
    if (former !== null) {
      const subtree = await tx
        .select({ id: departments.id })
        .from(departments)
        .where(
          and(eq(departments.companyId, department.companyId), like(departments.path, `${department.path}%`)),
        );
      const subtreeIds = subtree.map((d) => d.id);
      const [formerMember] = await tx
        .select({ departmentId: companyMembers.departmentId })
        .from(companyMembers)
        .where(and(eq(companyMembers.companyId, department.companyId), eq(companyMembers.userId, former)));
      if (formerMember?.departmentId === department.id) {
        await tx
          .update(companyMembers)
          .set({ departmentId: department.parentId ?? department.id, roleId: null })
          .where(and(eq(companyMembers.companyId, department.companyId), eq(companyMembers.userId, former)));
      }
      const subtreeDevices = sql`(SELECT ${devices.id} FROM ${devices} WHERE ${devices.companyId} = ${department.companyId} AND ${inArray(devices.departmentId, subtreeIds)})`;
      await tx
        .update(alarmSettings)
        .set({
          notifierIds: sql`array_remove(${alarmSettings.notifierIds}, ${former}::bigint)`,
          updatedAt: new Date(),
        })
        .where(
          and(
            eq(alarmSettings.companyId, department.companyId),
            sql`${former}::bigint = ANY(${alarmSettings.notifierIds})`,
            sql`${alarmSettings.deviceId} IN ${subtreeDevices}`,
          ),
        );
      await tx
        .delete(devicePermissions)
        .where(
          and(
            eq(devicePermissions.companyId, department.companyId),
            eq(devicePermissions.userId, former),
            sql`${devicePermissions.deviceId} IN ${subtreeDevices}`,
          ),
        );
      await invalidateDepartmentNotices(tx, department.companyId, former, subtreeIds);
    }
    await recordAudit(tx, actor, {
      action: 'department.transferLeader',
      targetType: 'department',
      targetId: department.id,
      before: { leaderUserId: former },
      after: { leaderUserId: newLeader },
    });
  });
}

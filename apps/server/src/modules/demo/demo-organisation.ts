import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { deviceGroups } from '../groups/groups.table';
import { insertAdminRole, insertDepartment } from '../org/company-setup';
import { departments } from '../org/org.table';

/** The demo's departments under the company, and the groups in each (spec: groupingMode). */
export const DEMO_DEPARTMENTS = {
  Pharmacy: ['Vaccine fridges', 'Blood and samples', 'Wards and labs'],
  'Cold Store': ['Cold rooms', 'Retail and transport'],
} as const;
export type DemoDepartment = keyof typeof DEMO_DEPARTMENTS;
export type DemoGroup = (typeof DEMO_DEPARTMENTS)[DemoDepartment][number];

export interface DemoPlacement {
  department: DemoDepartment;
  departmentId: number;
  groupId: number;
}

/**
 * Creates (once) the demo departments with their administrator roles and their groups, and
 * returns where each group is. Looked up by name, so a restart, or an older demo database that
 * predates departments, ends with the same organisation and nothing twice.
 */
export async function seedDemoOrganisation(
  db: Db,
  companyId: number,
): Promise<Map<DemoGroup, DemoPlacement>> {
  return db.transaction(async (tx) => {
    const [root] = await tx
      .select()
      .from(departments)
      .where(and(eq(departments.companyId, companyId), isNull(departments.parentId)));
    if (!root) throw new Error('the demo company has no root department');
    const placements = new Map<DemoGroup, DemoPlacement>();
    for (const [name, groups] of Object.entries(DEMO_DEPARTMENTS) as [
      DemoDepartment,
      readonly DemoGroup[],
    ][]) {
      const [existing] = await tx
        .select({ id: departments.id })
        .from(departments)
        .where(
          and(
            eq(departments.companyId, companyId),
            eq(departments.parentId, root.id),
            eq(departments.name, name),
          ),
        );
      let departmentId = existing?.id;
      if (!departmentId) {
        departmentId = (
          await insertDepartment(tx, {
            companyId,
            parentId: root.id,
            parentPath: root.path,
            level: root.level + 1,
            name,
          })
        ).id;
        await insertAdminRole(tx, companyId, departmentId);
      }
      for (const group of groups) {
        const [found] = await tx
          .select({ id: deviceGroups.id })
          .from(deviceGroups)
          .where(and(eq(deviceGroups.departmentId, departmentId), eq(deviceGroups.name, group)));
        const groupId =
          found?.id ??
          (await tx.insert(deviceGroups).values({ companyId, departmentId, name: group }).returning())[0]!.id;
        placements.set(group, { department: name, departmentId, groupId });
      }
    }
    return placements;
  });
}

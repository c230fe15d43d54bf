import { randomInt } from 'node:crypto';
import { AuthTags } from '@coldchain/contract';
import { eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { departments, roles } from './org.table';

/** Name of the role every department starts with; it is data, so it is not translated. */
export const ADMIN_ROLE_NAME = 'Administrator';

/**
 * A 12-digit department code (spec section 5). People type it to apply for joining, so it is
 * random rather than sequential; the unique index catches the rare collision and the caller retries.
 */
export function newDepartmentCode(): string {
  return String(randomInt(100_000_000_000, 1_000_000_000_000));
}

/** Inserts a department, retrying on a code collision; sets its materialised path. */
export async function insertDepartment(
  db: Queryable,
  values: {
    companyId: number;
    parentId: number | null;
    parentPath: string;
    level: number;
    name: string;
    leaderUserId?: number | null;
    address?: string;
    imageUrl?: string;
  },
): Promise<{ id: number; code: string; path: string }> {
  for (let attempt = 0; ; attempt++) {
    const code = newDepartmentCode();
    try {
      const [row] = await db
        .insert(departments)
        .values({
          companyId: values.companyId,
          parentId: values.parentId,
          code,
          name: values.name,
          level: values.level,
          leaderUserId: values.leaderUserId ?? null,
          address: values.address ?? '',
          imageUrl: values.imageUrl ?? '',
        })
        .returning({ id: departments.id });
      const path = `${values.parentPath}${row!.id}/`;
      await db.update(departments).set({ path }).where(eq(departments.id, row!.id));
      return { id: row!.id, code, path };
    } catch (error) {
      if (attempt >= 3 || !String((error as Error).message).includes('departments_code_key')) throw error;
    }
  }
}

/** Creates the department administrator role of a department, holding `tags` (all by default). */
export async function insertAdminRole(
  db: Queryable,
  companyId: number,
  departmentId: number,
  tags: readonly string[] = AuthTags,
): Promise<number> {
  const [role] = await db
    .insert(roles)
    .values({ companyId, departmentId, name: ADMIN_ROLE_NAME, isDepartmentAdmin: true, tags: [...tags] })
    .returning({ id: roles.id });
  return role!.id;
}

/** The root department (standing for the company) and its administrator role. */
export async function setUpCompanyOrganisation(
  db: Queryable,
  companyId: number,
  companyName: string,
  founderUserId: number,
): Promise<{ departmentId: number; roleId: number }> {
  const root = await insertDepartment(db, {
    companyId,
    parentId: null,
    parentPath: '/',
    level: 1,
    name: companyName,
    leaderUserId: founderUserId,
  });
  const roleId = await insertAdminRole(db, companyId, root.id);
  return { departmentId: root.id, roleId };
}

import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { idFromWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { departments } from '../org/org.table';
import { equipment } from './equipment.table';

/**
 * Department scope as for monitors (docs/decisions.md "Departments, roles and device rights"): a
 * member sees and changes the equipment of their department and below; a member of the root
 * department (or an administrator) the whole company. Equipment has no per-user grants.
 */
export function equipmentInScope(auth: Auth): SQL {
  const company = eq(equipment.companyId, auth.companyId ?? -1);
  if (auth.scopePath === null) return company;
  return and(
    company,
    sql`${equipment.departmentId} IN (SELECT d.id FROM ${departments} d WHERE d.company_id = ${auth.companyId} AND d.path LIKE ${`${auth.scopePath}%`})`,
  )!;
}

export type EquipmentRow = typeof equipment.$inferSelect;

/** The equipment if the caller may see (and so, with `equipment:edit`, change) it; else "does not exist". */
export async function equipmentOf(
  db: Queryable,
  auth: Auth,
  wireId: string,
  forUpdate = false,
): Promise<EquipmentRow> {
  const id = idFromWire(wireId);
  const query = db
    .select()
    .from(equipment)
    .where(and(eq(equipment.id, id ?? -1), equipmentInScope(auth)));
  const [row] = id ? await (forUpdate ? query.for('update') : query) : [];
  if (!row) throw new AppError('EQUIPMENT_NOT_FOUND');
  return row;
}

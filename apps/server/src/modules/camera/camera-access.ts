import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { idFromWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { departments } from '../org/org.table';
import { cameraPlatformAccounts, cameras } from './camera.table';

export type CameraRow = typeof cameras.$inferSelect;
export type PlatformAccountRow = typeof cameraPlatformAccounts.$inferSelect;

/**
 * Department scope as for monitors (docs/decisions.md "Departments, roles and device rights"): a
 * member sees and changes the cameras of their department and below; a member of the root
 * department (or an administrator) the whole company. A camera without a department is the
 * company's, seen from the root only.
 */
export function camerasInScope(auth: Auth): SQL {
  const company = eq(cameras.companyId, auth.companyId ?? -1);
  if (auth.scopePath === null) return company;
  return and(
    company,
    sql`${cameras.departmentId} IN (SELECT d.id FROM ${departments} d WHERE d.company_id = ${auth.companyId} AND d.path LIKE ${`${auth.scopePath}%`})`,
  )!;
}

/** The camera if the caller may see it (with `camera:edit`, change it); else "does not exist". */
export async function cameraOf(
  db: Queryable,
  auth: Auth,
  wireId: string,
  forUpdate = false,
): Promise<CameraRow> {
  const id = idFromWire(wireId);
  const query = db
    .select()
    .from(cameras)
    .where(and(eq(cameras.id, id ?? -1), camerasInScope(auth)));
  const [row] = id ? await (forUpdate ? query.for('update') : query) : [];
  if (!row) throw new AppError('CAMERA_NOT_FOUND');
  return row;
}

/** The company's platform account; another company's id reads as "does not exist". */
export async function platformAccountOf(
  db: Queryable,
  companyId: number,
  wireId: string | number,
  forUpdate = false,
): Promise<PlatformAccountRow> {
  const id = typeof wireId === 'number' ? wireId : idFromWire(wireId);
  const query = db
    .select()
    .from(cameraPlatformAccounts)
    .where(and(eq(cameraPlatformAccounts.id, id ?? -1), eq(cameraPlatformAccounts.companyId, companyId)));
  const [row] = id ? await (forUpdate ? query.for('update') : query) : [];
  if (!row) throw new AppError('CAMERA_ACCOUNT_NOT_FOUND');
  return row;
}

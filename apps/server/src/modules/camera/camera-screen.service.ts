import type { CameraScreenView, SaveCameraScreenRequest } from '@coldchain/contract';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { requireCompany } from '../../plugins/auth';
import { cameraScreens, cameras } from './camera.table';
import { camerasInScope } from './camera-access';

/** The cameras of `ids` the caller may see, in the order given. */
async function visibleInOrder(db: Db, auth: Auth, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const seen = await db
    .select({ id: cameras.id })
    .from(cameras)
    .where(and(inArray(cameras.id, ids), camerasInScope(auth)));
  const visible = new Set(seen.map((r) => r.id));
  return ids.filter((id) => visible.has(id));
}

/** `/api/camera/screen`: the caller's camera wall in this company; 4 tiles of nothing at first. */
export async function cameraScreen(db: Db, auth: Auth): Promise<CameraScreenView> {
  const [row] = await db
    .select()
    .from(cameraScreens)
    .where(and(eq(cameraScreens.userId, auth.userId), eq(cameraScreens.companyId, requireCompany(auth))));
  if (!row) return { size: 4, cameraIds: [] };
  // A camera deleted or moved out of the caller's sight since drops out of the wall.
  const ids = await visibleInOrder(db, auth, row.cameraIds);
  return { size: row.size as CameraScreenView['size'], cameraIds: ids.map(idToWire) };
}

/** `/api/camera/saveScreen`: personal, like a column choice, so not in the operation log. */
export async function saveCameraScreen(db: Db, auth: Auth, input: SaveCameraScreenRequest): Promise<void> {
  const companyId = requireCompany(auth);
  const ids = [...new Set(input.cameraIds.map((id) => idFromWire(id) ?? -1))].slice(0, input.size);
  const visible = await visibleInOrder(db, auth, ids);
  if (visible.length !== ids.length) throw new AppError('CAMERA_NOT_FOUND');
  await db
    .insert(cameraScreens)
    .values({ userId: auth.userId, companyId, size: input.size, cameraIds: visible })
    .onConflictDoUpdate({
      target: [cameraScreens.userId, cameraScreens.companyId],
      set: { size: input.size, cameraIds: visible, updatedAt: new Date() },
    });
}

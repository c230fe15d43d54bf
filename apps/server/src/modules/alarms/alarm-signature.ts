import { eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { verifySignPassword } from '../profile/profile.service';
import { users } from '../users/users.table';

/**
 * "When the company requires audit signature" (spec sections 3 and 8): the caller's sign-check
 * flag (`users.sign_check`, sent to the console as `signCheck`) says whether resolving an alarm
 * and exporting alarm records need the signature password (docs/decisions.md). Without the flag
 * the password is not asked for and a sent one is ignored.
 */
export async function requireSignatureIfChecked(
  db: Queryable,
  userId: number,
  signPassword: string | undefined,
): Promise<void> {
  const [user] = await db
    .select({ signCheck: users.signCheck, signPasswordHash: users.signPasswordHash })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!user) throw new AppError('LOGIN_EXPIRED');
  if (!user.signCheck) return;
  // Spec section 8: the feature is closed until a signature password is set.
  if (user.signPasswordHash === null) throw new AppError('SIGN_PASSWORD_NOT_SET');
  if (!signPassword) throw new AppError('SIGN_PASSWORD_REQUIRED');
  await verifySignPassword(db, userId, signPassword);
}

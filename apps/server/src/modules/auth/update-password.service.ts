import type { UpdatePasswordRequest } from '@coldchain/contract';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { hashPassword, verifyPassword } from '../../lib/password';
import type { Auth } from '../../plugins/auth';
import { recordAudit } from '../audit/audit.service';
import { users } from '../users/users.table';
import { endSessions } from './auth.service';

/**
 * `/api/user/updatePassword`: the old password proves the person; the new one must differ. Every
 * other session ends. A password-change-only session (renewal) ends too, so the person logs in
 * again with the new password; a normal session stays.
 */
export async function updatePassword(
  db: Db,
  auth: Pick<Auth, 'userId' | 'sessionId' | 'companyId' | 'passwordChangeOnly'>,
  input: UpdatePasswordRequest,
  ip: string,
): Promise<{ loggedOut: boolean }> {
  const [user] = await db.select().from(users).where(eq(users.id, auth.userId)).limit(1);
  if (!user) throw new AppError('LOGIN_EXPIRED');
  if (!(await verifyPassword(input.oldPassword, user.passwordHash))) throw new AppError('OLD_PASSWORD_WRONG');
  if (await verifyPassword(input.password, user.passwordHash)) throw new AppError('PASSWORD_SAME_AS_OLD');
  const passwordHash = await hashPassword(input.password);
  const loggedOut = auth.passwordChangeOnly === true;
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, passwordChangedAt: new Date() }).where(eq(users.id, user.id));
    await endSessions(tx, user.id, loggedOut ? null : auth.sessionId);
    // The audit trail is per company; a person without a company has nothing to audit yet.
    if (auth.companyId !== null) {
      await recordAudit(
        tx,
        { companyId: auth.companyId, userId: user.id, ip },
        { action: 'user.updatePassword', targetType: 'user', targetId: user.id },
      );
    }
  });
  return { loggedOut };
}

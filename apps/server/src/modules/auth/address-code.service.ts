import { randomInt } from 'node:crypto';
import { ADDRESS_CODE_TTL_HOURS, type AddressCodeIssued } from '@coldchain/contract';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { hashToken } from '../../lib/tokens';
import { recordLoginAttempt } from '../audit/login-log.service';
import { users } from '../users/users.table';
import { finishLogin, type LoginOutcome } from './auth.service';
import { addressLoginCodes } from './login-security.table';

/** Letters and digits that cannot be mistaken for each other when typed from a screen. */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function newAddressCode(): string {
  return Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
}

/**
 * A signed-in user issues a one-time code for a kiosk or data-screen link
 * (`/login?addressCode=CODE`); whoever opens the link is logged in as that user, once, within 24 h.
 */
export async function issueAddressCode(
  db: Db,
  userId: number,
  companyId: number | null,
): Promise<AddressCodeIssued> {
  const code = newAddressCode();
  const expiresAt = new Date(Date.now() + ADDRESS_CODE_TTL_HOURS * 3_600_000);
  await db.insert(addressLoginCodes).values({ codeHash: hashToken(code), userId, companyId, expiresAt });
  return { code, expireTime: expiresAt.getTime() };
}

/** `/api/doLoginCode`: the code is used up by the first login that presents it. */
export async function loginWithAddressCode(
  db: Db,
  code: string,
  platform: number,
  ip: string,
  sessionIdleMs: number,
): Promise<Exclude<LoginOutcome, { kind: 'needCode' }>> {
  const [used] = await db
    .update(addressLoginCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(addressLoginCodes.codeHash, hashToken(code)),
        isNull(addressLoginCodes.usedAt),
        gt(addressLoginCodes.expiresAt, new Date()),
      ),
    )
    .returning({ userId: addressLoginCodes.userId, companyId: addressLoginCodes.companyId });
  const [user] = used ? await db.select().from(users).where(eq(users.id, used.userId)).limit(1) : [];
  const attempt = {
    account: user?.account ?? `code:${code.slice(0, 3)}...`,
    userId: user?.id ?? null,
    companyId: used?.companyId ?? null,
    platform,
    method: 'addressCode' as const,
    ip,
    success: false,
  };
  if (!user || user.disabled) {
    await recordLoginAttempt(db, { ...attempt, reason: user ? 'disabled' : 'invalid address code' });
    throw new AppError('ADDRESS_CODE_INVALID');
  }
  return finishLogin(db, user, attempt, null, sessionIdleMs);
}

import {
  isEmail,
  type ModifyInformationRequest,
  type RegisterAccountRequest,
  type WireLanguage,
} from '@coldchain/contract';
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { idToWire } from '../../lib/ids';
import { hashPassword } from '../../lib/password';
import { normaliseAccount } from '../auth/auth.service';
import { updateUserInfo } from '../profile/profile.service';
import { users } from '../users/users.table';
import { consumeCode } from './codes.service';

export async function isRegistered(db: Db, account: string): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.account, account)).limit(1);
  return Boolean(row);
}

/** Creates an account once its verification code checks out; `language` (the call's header) is its alarm language. */
export async function registerAccount(
  db: Db,
  input: RegisterAccountRequest,
  language: WireLanguage = 'en',
): Promise<{ id: string }> {
  const account = normaliseAccount(input.account);
  if (await isRegistered(db, account)) throw new AppError('ACCOUNT_EXISTS');
  await consumeCode(db, account, 'register', input.code);
  const email = isEmail(account) ? account : null;
  const name = input.name ?? (email ? account.split('@')[0]! : `User ${account.slice(-4)}`);
  const [user] = await db
    .insert(users)
    .values({
      account,
      email,
      phone: email ? null : account,
      name,
      passwordHash: await hashPassword(input.password),
      language,
    })
    .onConflictDoNothing()
    .returning({ id: users.id });
  if (!user) throw new AppError('ACCOUNT_EXISTS');
  return { id: idToWire(user.id) };
}

/**
 * `/api/register/modifyInformation`: the new user completes their information. The account's own
 * kind (the e-mail of an e-mail account, the mobile number of a mobile account) stays the account:
 * a value sent for it is ignored, so the profile never disagrees with the login. Saving goes
 * through the personal centre's updateUserInfo, so it is audited the same way (docs/decisions.md).
 */
export async function modifyInformation(
  db: Db,
  request: FastifyRequest,
  input: ModifyInformationRequest,
): Promise<void> {
  const [user] = await db
    .select({ account: users.account })
    .from(users)
    .where(eq(users.id, request.auth.userId))
    .limit(1);
  if (!user) throw new AppError('LOGIN_EXPIRED');
  const accountIsEmail = isEmail(user.account);
  await updateUserInfo(db, request, {
    name: input.name,
    gender: input.gender,
    email: accountIsEmail ? undefined : input.email,
    phone: accountIsEmail ? input.phone : undefined,
  });
}

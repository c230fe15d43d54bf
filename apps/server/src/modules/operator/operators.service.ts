import { asc, eq, inArray } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client';
import { recordAudit } from '../audit/audit.service';
import { normaliseAccount } from '../auth/auth.service';
import { authChanged } from '../auth/auth-changes';
import { users } from '../users/users.table';

/**
 * Audit entries of platform work that concerns no single company (operator flags, the device
 * inventory) go to the platform's own chain: company id 0, which no company has.
 */
export const PLATFORM_CHAIN = 0;

export interface OperatorRow {
  id: number;
  account: string;
  name: string;
}

/**
 * Sets or clears the platform-operator flag of `account`. Answers false when no user has that
 * account. Audited in the platform chain; the user's cached sessions pick the change up at once.
 */
export async function setOperator(
  db: Db,
  account: string,
  isOperator: boolean,
  actor: { userId: number | null; ip: string } = { userId: null, ip: '' },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [user] = await tx
      .update(users)
      .set({ isOperator })
      .where(eq(users.account, normaliseAccount(account)))
      .returning({ id: users.id, account: users.account });
    if (!user) return false;
    await recordAudit(
      tx,
      { companyId: PLATFORM_CHAIN, ...actor },
      {
        action: isOperator ? 'operator.add' : 'operator.remove',
        targetType: 'user',
        targetId: user.id,
        after: { account: user.account, isOperator },
      },
    );
    authChanged({ userId: user.id });
    return true;
  });
}

export async function listOperators(db: Queryable): Promise<OperatorRow[]> {
  return db
    .select({ id: users.id, account: users.account, name: users.name })
    .from(users)
    .where(eq(users.isOperator, true))
    .orderBy(asc(users.account));
}

/**
 * OPERATOR_ACCOUNTS at start: every listed account that exists becomes an operator (never
 * demoted by leaving the list: `npm run admin -- operator remove` does that). Answers the
 * accounts that do not exist yet, for the start-up log.
 */
export async function applyOperatorAccounts(db: Db, accounts: readonly string[]): Promise<string[]> {
  if (accounts.length === 0) return [];
  const wanted = [...new Set(accounts.map(normaliseAccount))];
  const found = await db
    .select({ account: users.account, isOperator: users.isOperator })
    .from(users)
    .where(inArray(users.account, wanted));
  for (const user of found) if (!user.isOperator) await setOperator(db, user.account, true);
  const existing = new Set(found.map((u) => u.account));
  return wanted.filter((a) => !existing.has(a));
}

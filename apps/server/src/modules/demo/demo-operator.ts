import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { hashPassword } from '../../lib/password';
import { users } from '../users/users.table';
import { DEMO_PASSWORD } from './demo-seed';

export const DEMO_OPERATOR_ACCOUNT = 'operator@example.com';

/**
 * The demo's platform operator (API.md "Demo accounts"): the supplier's account manager, in no
 * company, who sees the operator area only. Made once; an existing account is left as it is.
 */
export async function seedDemoOperator(db: Db): Promise<void> {
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.account, DEMO_OPERATOR_ACCOUNT))
    .limit(1);
  if (existing) return;
  await db
    .insert(users)
    .values({
      account: DEMO_OPERATOR_ACCOUNT,
      email: DEMO_OPERATOR_ACCOUNT,
      name: 'Demo Operator',
      passwordHash: await hashPassword(DEMO_PASSWORD),
      isOperator: true,
    })
    .onConflictDoNothing();
}

import { ServiceAuthTags } from '@coldchain/contract';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { hashPassword } from '../../lib/password';
import { createCompanyWithAdmin } from '../companies/companies.service';
import { companies, companyMembers } from '../companies/companies.table';
import { grantCredit } from '../delivery/credits.service';
import { addInventory, type InventoryItem } from '../inventory/inventory.service';
import type { InventoryChannel } from '../inventory/inventory.table';
import { users } from '../users/users.table';

export const DEMO_ACCOUNT = 'demo@example.com';
export const DEMO_PASSWORD = 'Demo1234';
export const DEMO_COMPANY = 'Demo Cold Chain';
/** Message credit the demo company starts with (spec section 9). */
export const DEMO_CREDIT = 1000;

const temperature = (ch: number, min = -40, max = 85): InventoryChannel => ({
  ch,
  type: 'temperature',
  unit: '°C',
  min,
  max,
});
const humidity = (ch: number): InventoryChannel => ({ ch, type: 'humidity', unit: '%RH', min: 0, max: 100 });

/** Spare loggers SIM1001-SIM1020 for users to add: three common models across the version tiers. */
export function demoSpareInventory(): InventoryItem[] {
  return Array.from({ length: 20 }, (_, i) => {
    const n = 1001 + i;
    const serial = `SIM${n}`;
    if (n <= 1010)
      return { serial, model: 'CC-TH2', version: 'standard', channels: [temperature(1), humidity(2)] };
    if (n <= 1015) return { serial, model: 'CC-T1', version: 'basic', channels: [temperature(1)] };
    return {
      serial,
      model: 'CC-TF4',
      version: 'elite',
      channels: [1, 2, 3, 4].map((ch) => temperature(ch, -200, 200)),
    };
  });
}

/**
 * The demo company, its administrator and the spare inventory. Safe to run at every start: what
 * exists already is left untouched (so a demo user's changes survive restarts).
 */
export async function seedDemo(db: Db): Promise<{ created: boolean; companyId: number | null }> {
  const created = await db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(users.account, DEMO_ACCOUNT))
      .limit(1);
    if (existing) return false;
    const [user] = await tx
      .insert(users)
      .values({
        account: DEMO_ACCOUNT,
        email: DEMO_ACCOUNT,
        name: 'Demo Admin',
        passwordHash: await hashPassword(DEMO_PASSWORD),
      })
      .returning({ id: users.id });
    const companyId = await createCompanyWithAdmin(tx, user!.id, {
      name: DEMO_COMPANY,
      industry: 'healthcare',
      address: '',
      services: [...ServiceAuthTags],
    });
    await tx.update(users).set({ lastCompanyId: companyId }).where(eq(users.id, user!.id));
    await grantCredit(tx, companyId, DEMO_CREDIT, 'demo starting balance');
    return true;
  });
  await addInventory(db, demoSpareInventory());
  const [demo] = await db
    .select({ companyId: companies.id })
    .from(companies)
    .innerJoin(companyMembers, eq(companyMembers.companyId, companies.id))
    .innerJoin(users, eq(users.id, companyMembers.userId))
    .where(and(eq(users.account, DEMO_ACCOUNT), eq(companies.name, DEMO_COMPANY)))
    .limit(1);
  return { created, companyId: demo?.companyId ?? null };
}

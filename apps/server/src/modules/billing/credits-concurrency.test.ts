import type { CreditLedgerRowView } from '@coldchain/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import type { Auth } from '../../plugins/auth';
import { buildCompany, buildDevice } from '../../test/factories';
import { openPostgresTestDatabase } from '../../test/test-database';
import { grantCredit, refundCredit, reserveCredit } from '../delivery/credits.service';
import { creditLedger } from '../delivery/delivery.table';
import { getCreditBalance, pageLedger } from './credits.service';
import { buildNotification } from './credits-test-support';

/**
 * No lost update (issue 17): many debits, refunds and top-ups of one company at the same moment,
 * through delivery's real credit functions, on PostgreSQL with a pool of connections (the embedded
 * database runs one statement at a time, so it could not show a race). Afterwards the ledger, read
 * through the ledger call, adds up to the balance the balance call answers.
 */
describe('credit ledger under concurrent spending and top-ups (PostgreSQL)', () => {
  let database: Database;

  beforeAll(async () => {
    database = await openPostgresTestDatabase();
  }, 60_000);
  afterAll(async () => {
    await database?.close();
  });

  async function ledgerSum(auth: Auth): Promise<{ sum: number; rows: number }> {
    let sum = 0;
    let rows = 0;
    for (let pageNum = 1; ; pageNum++) {
      const page = await pageLedger(database.db, auth, { pageNum, pageSize: 200 });
      sum += page.list.reduce((total: number, r: CreditLedgerRowView) => total + r.amount, 0);
      rows += page.list.length;
      if (rows >= page.total) return { sum, rows };
    }
  }

  it('keeps the ledger sum equal to the balance, and never below zero', async () => {
    const db = database.db;
    expect(database.kind).toBe('postgres');
    const company = await buildCompany(db);
    const device = await buildDevice(db, company.id);
    const auth = { companyId: company.id, userId: company.admin.id, scopePath: null } as Auth;
    const channels = ['sms', 'email', 'call'] as const;
    let granted = 0;
    for (let round = 0; round < 3; round++) {
      const notifications = [];
      for (let i = 0; i < 40; i++) {
        const channel = channels[i % 3]!;
        const { notificationId } = await buildNotification(
          db,
          company.id,
          Number(device.id),
          company.admin.id,
          channel,
        );
        notifications.push({ notificationId, channel, cost: channel === 'sms' ? 1 + (i % 2) : 1 });
      }
      // Everything at once: the first grants race to create the balance row, debits race each
      // other and the grants, and refunds race the debits they give back.
      const work: (() => Promise<unknown>)[] = [];
      for (const [i, n] of notifications.entries()) {
        // Interleaved, so that grants and debits reach the pool together rather than in waves.
        if (i % 8 === 0) {
          for (let g = 0; g < 5; g++) {
            work.push(() => grantCredit(db, company.id, 3, `top-up ${round}.${i}.${g}`));
            granted += 3;
          }
        }
        work.push(() => reserveCredit(db, company.id, n.notificationId, n.channel, n.cost));
        if (i % 4 === 0) work.push(() => refundCredit(db, company.id, n.notificationId));
      }
      const results = await Promise.allSettled(work.map((start) => start()));
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
      // A retry finds its debit and pays nothing more. (Retries run one after another: the delivery
      // worker's lease keeps two workers off one message, and two reserves of one message at the
      // same instant end in the ledger's unique key, which rolls the second back.)
      for (const n of notifications) await reserveCredit(db, company.id, n.notificationId, n.channel, n.cost);

      const { balance } = await getCreditBalance(db, company.id);
      const { sum, rows } = await ledgerSum(auth);
      expect(sum).toBe(balance);
      expect(balance).toBeGreaterThanOrEqual(0);
      // Some debits were paid and some refused for want of credit, so the race was real.
      const [debits] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(creditLedger)
        .where(and(eq(creditLedger.companyId, company.id), eq(creditLedger.kind, 'debit')));
      expect(debits!.n).toBeGreaterThan(0);
      expect(rows).toBeGreaterThan(25 * (round + 1));
      expect(rows).toBe(
        Number(
          (
            await db
              .select({ n: sql<number>`count(*)::int` })
              .from(creditLedger)
              .where(eq(creditLedger.companyId, company.id))
          )[0]!.n,
        ),
      );
    }
    // Each notification was paid once at most and refunded once at most, whatever the retries.
    const perMessage = await db
      .select({ kind: creditLedger.kind, n: sql<number>`count(*)::int` })
      .from(creditLedger)
      .where(eq(creditLedger.companyId, company.id))
      .groupBy(creditLedger.notificationId, creditLedger.kind)
      .having(sql`${creditLedger.notificationId} is not null and count(*) > 1`);
    expect(perMessage).toEqual([]);
    // What came in minus what went out is what is left.
    const [totals] = await db
      .select({
        grants: sql<number>`coalesce(sum(amount) filter (where kind = 'grant'), 0)::int`,
        spent: sql<number>`coalesce(-sum(amount) filter (where kind <> 'grant'), 0)::int`,
      })
      .from(creditLedger)
      .where(eq(creditLedger.companyId, company.id));
    expect(totals!.grants).toBe(granted);
    expect((await getCreditBalance(db, company.id)).balance).toBe(granted - totals!.spent);
  }, 120_000);
});

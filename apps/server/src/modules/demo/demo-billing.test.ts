import { InvoiceStatus, OrderStatus } from '@coldchain/contract';
import { eq, sum } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/build-app';
import { buildCompany } from '../../test/factories';
import { invoiceApplications } from '../billing/invoices.table';
import { orders } from '../billing/orders.table';
import { orderPayments } from '../billing/payments.table';
import { creditBalance } from '../delivery/credits.service';
import { creditLedger } from '../delivery/delivery.table';
import { seedDemoBilling } from './demo-billing';

describe('demo billing', () => {
  const ctx = useTestApp();

  it('pays two top-ups through the real decision, leaves one invoice and one late order, once', async () => {
    const db = ctx.app.db;
    const company = await buildCompany(db);
    const before = await creditBalance(db, company.id);
    await seedDemoBilling(db, company.id);
    await seedDemoBilling(db, company.id);
    const rows = await db.select().from(orders).where(eq(orders.companyId, company.id));
    expect(rows.map((r) => [r.amountCents, r.status]).sort()).toEqual([
      [10_000, OrderStatus.Pending],
      [25_000, OrderStatus.Approved],
      [30_000, OrderStatus.Approved],
    ]);
    expect(await creditBalance(db, company.id)).toBe(before + 5500);
    const [ledger] = await db
      .select({ total: sum(creditLedger.amount) })
      .from(creditLedger)
      .where(eq(creditLedger.companyId, company.id));
    expect(Number(ledger?.total)).toBe(await creditBalance(db, company.id));
    const invoices = await db
      .select()
      .from(invoiceApplications)
      .where(eq(invoiceApplications.companyId, company.id));
    expect(invoices.map((i) => [i.status, i.amountCents])).toEqual([[InvoiceStatus.InProgress, 25_000]]);
    const pending = rows.find((r) => r.status === OrderStatus.Pending)!;
    const [terms] = await db.select().from(orderPayments).where(eq(orderPayments.orderId, pending.id));
    expect(terms?.dueDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});

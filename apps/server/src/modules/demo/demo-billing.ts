import { CREDIT_UNIT_PRICE_SEN, InvoiceStatus, OrderStatus } from '@coldchain/contract';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { invoiceApplications, invoiceOrders } from '../billing/invoices.table';
import { approveOrder } from '../billing/order-decisions';
import { orders } from '../billing/orders.table';
import { creditPurchases, orderPayments } from '../billing/payments.table';
import { users } from '../users/users.table';
import { DEMO_ACCOUNT } from './demo-seed';

const DAY = 86_400_000;

/**
 * The demo's money (issue 17 item 7): credit top-ups paid through the same decision the operator
 * makes (so the ledger, the balance and the orders agree), one paid order free to invoice, one
 * under an invoice application for the operator to issue, and one pending order past its due date
 * (late fee) for the operator to approve. Runs once per company: a company with top-ups is left.
 */
export async function seedDemoBilling(db: Db, companyId: number, now = Date.now()) {
  const adminAccount = DEMO_ACCOUNT;
  const [existing] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.companyId, companyId), eq(orders.kind, 'credits')))
    .limit(1);
  if (existing) return;
  const [admin] = await db
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(eq(users.account, adminAccount));
  const topUp = async (credits: number, daysAgo: number) => {
    const [row] = await db
      .insert(orders)
      .values({
        companyId,
        createdBy: admin?.id ?? null,
        kind: 'credits',
        lines: [],
        months: 0,
        amountCents: credits * CREDIT_UNIT_PRICE_SEN,
        status: OrderStatus.Pending,
        createdAt: new Date(now - daysAgo * DAY),
      })
      .returning({ id: orders.id });
    await db.insert(creditPurchases).values({ orderId: row!.id, credits });
    await db.insert(orderPayments).values({ orderId: row!.id, companyId, method: 'transfer' });
    return row!.id;
  };
  // Paid, free to invoice: RM300.
  await approveOrder(db, await topUp(3000, 20), new Date(now - 19 * DAY));
  // Paid and under an invoice application in progress: RM250.
  const invoiced = await topUp(2500, 12);
  await approveOrder(db, invoiced, new Date(now - 11 * DAY));
  const [application] = await db
    .insert(invoiceApplications)
    .values({
      companyId,
      createdBy: admin?.id ?? null,
      type: 'electronic',
      title: 'Demo Cold Chain Sdn Bhd',
      amountCents: 2500 * CREDIT_UNIT_PRICE_SEN,
      taxpayerId: 'C2584563201',
      email: adminAccount,
      companyAddress: '1 Jalan Demo, Kuala Lumpur',
      status: InvoiceStatus.InProgress,
      createdAt: new Date(now - 10 * DAY),
    })
    .returning({ id: invoiceApplications.id });
  await db.insert(invoiceOrders).values({ invoiceId: application!.id, orderId: invoiced, companyId });
  // Pending, due a week ago: the operator's to approve, with its late fee showing.
  const pending = await topUp(1000, 9);
  await db
    .update(orderPayments)
    .set({ dueDate: new Date(now - 7 * DAY).toISOString().slice(0, 10) })
    .where(eq(orderPayments.orderId, pending));
}

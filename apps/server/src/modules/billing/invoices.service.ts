import {
  type ApplyInvoiceRequest,
  type InvoiceableOrderView,
  InvoiceStatus,
  type InvoiceView,
  MIN_INVOICE_SEN,
  OrderStatus,
  type Page,
  type PageInvoicesRequest,
} from '@coldchain/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client';
import { pageOf, whenGiven } from '../../db/page-query';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { type Actor, recordAudit } from '../audit/audit.service';
import type { FileStore } from '../files/store/store';
import { assertDepartmentInScope } from '../org/access';
import { departments } from '../org/org.table';
import { invoiceApplications, invoiceOrders } from './invoices.table';
import { INVOICE_ROW, type InvoiceRowJson, presentInvoice } from './invoices-view';
import { orderNumber, visibleOrders } from './orders.service';
import { orders } from './orders.table';
import { assertStoredImage } from './payments.service';
import { orderPayments } from './payments.table';
import { centsToRm } from './prices';

/** No live application holds the order (in progress or issued). */
const notOnLiveInvoice = sql`not exists (select 1 from ${invoiceOrders} io where io.order_id = ${orders.id} and io.live)`;

/**
 * Applications the caller may see: the whole company for those who see it all; a department
 * member sees the applications made from their department and those below it.
 */
function visibleInvoices(auth: Auth): ReturnType<typeof and> {
  const company = eq(invoiceApplications.companyId, auth.companyId ?? -1);
  if (auth.scopePath === null) return company;
  return and(
    company,
    sql`${invoiceApplications.departmentId} in (select d.id from ${departments} d
          where d.company_id = ${auth.companyId} and d.path like ${`${auth.scopePath}%`})`,
  );
}

/** The late fee paid with an order (payments.table.ts `late_fee_cents`), 0 without a payment row. */
const paidLateFee = sql<number>`coalesce((select p.late_fee_cents from ${orderPayments} p where p.order_id = ${orders.id}), 0)`;

/** `/api/invoice/invoiceableOrders`: paid orders of the caller's that no live application holds. */
export async function invoiceableOrders(db: Queryable, auth: Auth): Promise<InvoiceableOrderView[]> {
  const rows = await db
    .select({ order: orders, lateFeeCents: paidLateFee })
    .from(orders)
    .where(and(visibleOrders(auth), eq(orders.status, OrderStatus.Approved), notOnLiveInvoice))
    .orderBy(orders.createdAt, orders.id)
    .limit(500);
  return rows.map(({ order: r, lateFeeCents }) => ({
    id: idToWire(r.id),
    orderNo: orderNumber(r),
    kind: r.kind,
    amount: centsToRm(r.amountCents),
    lateFee: centsToRm(Number(lateFeeCents)),
    createTime: r.createdAt.getTime(),
  }));
}

/**
 * `/api/invoice/applyInvoice`: the amount is the orders' sum, never a figure from the request. The
 * orders are locked, so two applications over the same order cannot both pass the check, and the
 * partial unique index (invoices.table.ts) holds even if they did.
 */
export async function applyInvoice(
  db: Db,
  actor: Actor,
  auth: Auth,
  files: FileStore,
  input: ApplyInvoiceRequest,
  language: 'cn' | 'en',
): Promise<{ id: string }> {
  if (input.proofImage) await assertStoredImage(files, input.proofImage, language);
  const ids = [...new Set(input.orderIds.map((w) => idFromWire(w) ?? 0))];
  return db.transaction(async (tx) => {
    const rows = await tx
      .select({ order: orders, free: sql<boolean>`${notOnLiveInvoice}`, lateFeeCents: paidLateFee })
      .from(orders)
      .where(and(inArray(orders.id, ids), visibleOrders(auth)))
      .orderBy(orders.id)
      .for('update', { of: orders });
    if (rows.length !== ids.length) throw new AppError('ORDER_NOT_FOUND');
    const unavailable = rows.find((r) => r.order.status !== OrderStatus.Approved || !r.free);
    if (unavailable)
      throw new AppError('INVOICE_ORDER_UNAVAILABLE', { orderNo: orderNumber(unavailable.order) });
    // What was paid: each order's amount and the late fee paid with it.
    const amountCents = rows.reduce((sum, r) => sum + r.order.amountCents + Number(r.lateFeeCents), 0);
    if (amountCents < MIN_INVOICE_SEN) throw new AppError('INVOICE_MINIMUM');
    const [created] = await tx
      .insert(invoiceApplications)
      .values({
        companyId: actor.companyId,
        createdBy: actor.userId,
        departmentId: auth.departmentId,
        type: input.type,
        title: input.title,
        amountCents,
        taxpayerId: input.taxpayerId ?? '',
        bank: input.bank ?? '',
        account: input.account ?? '',
        companyAddress: input.companyAddress ?? '',
        companyPhone: input.companyPhone ?? '',
        mailingAddress: input.mailingAddress ?? '',
        postcode: input.postcode ?? '',
        recipient: input.recipient ?? '',
        contact: input.contact ?? '',
        email: input.email ?? '',
        proofImage: input.proofImage ?? null,
        status: InvoiceStatus.InProgress,
      })
      .returning({ id: invoiceApplications.id });
    await tx
      .insert(invoiceOrders)
      .values(ids.map((orderId) => ({ invoiceId: created!.id, orderId, companyId: actor.companyId })));
    await recordAudit(tx, actor, {
      action: 'invoice.apply',
      targetType: 'invoice',
      targetId: created!.id,
      after: {
        amountCents,
        orders: rows.map((r) => orderNumber(r.order)),
        type: input.type,
        title: input.title,
      },
    });
    return { id: idToWire(created!.id) };
  });
}

/** `/api/invoice/pageInvoices`; with `departmentId`, that department's subtree (orgApplicationForInvoice). */
export async function pageInvoices(
  db: Queryable,
  auth: Auth,
  query: PageInvoicesRequest,
): Promise<Page<InvoiceView>> {
  const departmentId = await assertDepartmentInScope(db, auth, query.departmentId);
  const where = and(
    visibleInvoices(auth),
    whenGiven(query.status, 'smallint', (v) => sql`${invoiceApplications.status} = ${v}`),
    whenGiven(
      departmentId,
      'bigint',
      (v) => sql`${invoiceApplications.departmentId} in (select d.id from ${departments} d
        where d.path like (select p.path from ${departments} p where p.id = ${v}) || '%')`,
    ),
  );
  return pageOf(
    db,
    {
      row: INVOICE_ROW,
      from: invoiceApplications,
      where,
      orderBy: sql`${invoiceApplications.createdAt} desc, ${invoiceApplications.id} desc`,
    },
    query,
    (raw: InvoiceRowJson) => presentInvoice(raw),
  );
}

/** The caller's application, locked, in progress; the orders go back to "not invoiced". */
export async function cancelInvoice(db: Db, actor: Actor, auth: Auth, wireId: string): Promise<void> {
  const id = idFromWire(wireId) ?? 0;
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(invoiceApplications)
      .where(and(eq(invoiceApplications.id, id), visibleInvoices(auth)))
      .for('update');
    if (!row) throw new AppError('INVOICE_NOT_FOUND');
    if (row.status !== InvoiceStatus.InProgress) throw new AppError('INVOICE_NOT_IN_PROGRESS');
    await closeApplication(tx, id, { status: InvoiceStatus.Cancelled });
    await recordAudit(tx, actor, {
      action: 'invoice.cancel',
      targetType: 'invoice',
      targetId: id,
      before: { status: row.status },
      after: { status: InvoiceStatus.Cancelled },
    });
  });
}

/** Ends an application (cancelled or rejected): its orders become free to invoice again. */
export async function closeApplication(
  tx: Queryable,
  id: number,
  values: { status: InvoiceStatus; rejectReason?: string },
): Promise<void> {
  await tx
    .update(invoiceApplications)
    .set({ ...values, decidedAt: new Date() })
    .where(eq(invoiceApplications.id, id));
  await tx.update(invoiceOrders).set({ live: false }).where(eq(invoiceOrders.invoiceId, id));
}

/** The issued PDF's stored path, for the company's download; only once issued. */
export async function invoicePdf(
  db: Queryable,
  auth: Auth,
  wireId: string,
): Promise<{ id: number; pdfFile: string }> {
  const id = idFromWire(wireId) ?? 0;
  const [row] = await db
    .select({ status: invoiceApplications.status, pdfFile: invoiceApplications.pdfFile })
    .from(invoiceApplications)
    .where(and(eq(invoiceApplications.id, id), visibleInvoices(auth)));
  if (!row) throw new AppError('INVOICE_NOT_FOUND');
  if (row.status !== InvoiceStatus.Generated || !row.pdfFile) throw new AppError('INVOICE_NO_PDF');
  return { id, pdfFile: row.pdfFile };
}

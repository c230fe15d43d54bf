import {
  type BuyCreditsRequest,
  CREDIT_UNIT_PRICE_SEN,
  OrderStatus,
  type OrderView,
  type Page,
  type PageServiceListRequest,
  type PayByTransferRequest,
  type PaymentOptionsView,
  type PayOnlineView,
} from '@coldchain/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client';
import { pageOf, whenGiven } from '../../db/page-query';
import { AppError } from '../../lib/app-error';
import { idFromWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { type Actor, recordAudit } from '../audit/audit.service';
import { checkUpload, readUpload } from '../files/file-store';
import type { FileStore } from '../files/store/store';
import { lateFeeOn, utcDay } from './late-fee';
import { orderNumber, visibleOrders } from './orders.service';
import { orders } from './orders.table';
import {
  createCheckoutSession,
  onlinePaymentOn,
  type PaymentConfig,
  PaymentProviderError,
} from './payment-adapter';
import { creditPurchases, orderPayments } from './payments.table';
import { ORDER_ROW, type OrderRowJson, presentOrderRow } from './payments-order-view';
import { centsToRm } from './prices';

export function paymentOptions(config: PaymentConfig | null): PaymentOptionsView {
  return {
    online: onlinePaymentOn(config),
    transferDetails: config?.transferDetails ?? '',
    creditUnitPrice: centsToRm(CREDIT_UNIT_PRICE_SEN),
    currency: 'RM',
  };
}

/** `/api/order/pageServiceList`: every order the caller may see, newest first, one statement. */
export async function pageServiceList(
  db: Queryable,
  auth: Auth,
  query: PageServiceListRequest,
): Promise<Page<OrderView>> {
  const where = and(
    visibleOrders(auth),
    whenGiven(query.status, 'smallint', (v) => sql`${orders.status} = ${v}`),
    whenGiven(query.kind, 'text', (v) => sql`${orders.kind} = ${v}`),
    whenGiven(
      query.invoiceStatus,
      'smallint',
      (
        v,
      ) => sql`coalesce((select a.status from invoice_orders io join invoice_applications a on a.id = io.invoice_id
                  where io.order_id = ${orders.id} and io.live limit 1), 0) = ${v}`,
    ),
  );
  const now = Date.now();
  return pageOf(
    db,
    { row: ORDER_ROW, from: orders, where, orderBy: sql`${orders.createdAt} desc, ${orders.id} desc` },
    query,
    (raw: OrderRowJson) => presentOrderRow(raw, now),
  );
}

/** A credit top-up order: credits times the unit price, pending payment (docs/decisions.md). */
export async function buyCredits(
  db: Db,
  actor: Actor,
  input: BuyCreditsRequest,
): Promise<{ id: string; orderNo: string }> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(orders)
      .values({
        companyId: actor.companyId,
        createdBy: actor.userId,
        status: OrderStatus.Pending,
        kind: 'credits',
        lines: [],
        months: 0,
        amountCents: input.credits * CREDIT_UNIT_PRICE_SEN,
      })
      .returning();
    await tx.insert(creditPurchases).values({ orderId: row!.id, credits: input.credits });
    await recordAudit(tx, actor, {
      action: 'order.credits',
      targetType: 'order',
      targetId: row!.id,
      after: { orderNo: orderNumber(row!), amountCents: row!.amountCents, credits: input.credits },
    });
    return { id: String(row!.id), orderNo: orderNumber(row!) };
  });
}

/** The caller's pending order, locked; anything else is refused in the caller's words. */
/** The late fee a pending order owes on `now`'s UTC day: 0 without a due date or before it passes. */
async function lateFeeDue(
  tx: Queryable,
  row: { id: number; amountCents: number },
  now: Date,
): Promise<number> {
  const [payment] = await tx
    .select({ dueDate: orderPayments.dueDate })
    .from(orderPayments)
    .where(eq(orderPayments.orderId, row.id));
  return payment?.dueDate
    ? Number(lateFeeOn(row.amountCents, payment.dueDate, utcDay(now.getTime())).lateFeeCents)
    : 0;
}

async function pendingOrder(tx: Queryable, auth: Auth, wireId: string) {
  const id = idFromWire(wireId);
  const [row] = id
    ? await tx
        .select()
        .from(orders)
        .where(and(eq(orders.id, id), visibleOrders(auth)))
        .for('update')
    : [];
  if (!row) throw new AppError('ORDER_NOT_FOUND');
  if (row.status !== OrderStatus.Pending) throw new AppError('ORDER_NOT_PAYABLE');
  return row;
}

/**
 * A bank transfer: the proof image (uploaded through `/api/file/upload`, purpose `invoice`) waits
 * for the operator, who approves the order with it in view (operator order page).
 */
export async function payByTransfer(
  db: Db,
  actor: Actor,
  auth: Auth,
  files: FileStore,
  input: PayByTransferRequest,
  language: 'cn' | 'en',
): Promise<{ id: string }> {
  await assertStoredImage(files, input.proofImage, language);
  return db.transaction(async (tx) => {
    const row = await pendingOrder(tx, auth, input.id);
    const now = new Date();
    // The transfer pays the amount and the late fee due on the day the proof is sent.
    const lateFeeCents = await lateFeeDue(tx, row, now);
    const values = { method: 'transfer', proofImage: input.proofImage, lateFeeCents, updatedAt: now };
    await tx
      .insert(orderPayments)
      .values({ orderId: row.id, companyId: row.companyId, ...values })
      .onConflictDoUpdate({ target: orderPayments.orderId, set: values });
    await recordAudit(tx, actor, {
      action: 'order.payByTransfer',
      targetType: 'order',
      targetId: row.id,
      after: { proofImage: input.proofImage, lateFeeCents },
    });
    return { id: String(row.id) };
  });
}

/** A proof image must be one of ours and an image (the path alone could name another upload). */
export async function assertStoredImage(files: FileStore, url: string, language: 'cn' | 'en') {
  const stored = await readUpload(files, url);
  if (!stored) throw new AppError('UPLOADED_FILE_MISSING');
  checkUpload('invoice', stored.bytes, language);
}

/**
 * Opens a checkout session for a pending order and remembers it: the webhook pays the order only
 * for the session it was opened with. The provider is called outside the transaction (no lock held
 * over the network); a second attempt simply replaces the remembered session.
 */
export async function payOnline(
  db: Db,
  actor: Actor,
  auth: Auth,
  config: PaymentConfig | null,
  wireId: string,
): Promise<PayOnlineView> {
  if (!onlinePaymentOn(config)) throw new AppError('PAYMENT_ONLINE_OFF');
  const now = new Date();
  const { row, lateFeeCents } = await db.transaction(async (tx) => {
    const row = await pendingOrder(tx, auth, wireId);
    return { row, lateFeeCents: await lateFeeDue(tx, row, now) };
  });
  const orderNo = orderNumber(row);
  let session: { id: string; url: string };
  try {
    session = await createCheckoutSession(config, {
      orderId: row.id,
      orderNo,
      // What the company pays online: the amount and the late fee due today.
      amountCents: row.amountCents + lateFeeCents,
      description: `Order ${orderNo}`,
    });
  } catch (error) {
    if (error instanceof PaymentProviderError) throw new AppError('PAYMENT_PROVIDER_FAILED');
    throw error;
  }
  await db.transaction(async (tx) => {
    const values = { method: 'online', checkoutSessionId: session.id, lateFeeCents, updatedAt: new Date() };
    await tx
      .insert(orderPayments)
      .values({ orderId: row.id, companyId: row.companyId, ...values })
      .onConflictDoUpdate({ target: orderPayments.orderId, set: values });
    await recordAudit(tx, actor, {
      action: 'order.payOnline',
      targetType: 'order',
      targetId: row.id,
      after: { checkoutSessionId: session.id },
    });
  });
  return { url: session.url };
}

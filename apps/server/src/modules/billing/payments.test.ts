import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { OrderStatus, type OrderView, type Page, type PaymentOptionsView } from '@coldchain/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { addMember, buildCompany, buildDepartment, buildRole, buildUser, login } from '../../test/factories';
import { auditLog } from '../audit/audit.table';
import { creditBalance } from '../delivery/credits.service';
import { creditLedger } from '../delivery/delivery.table';
import { signWebhook } from './payment-adapter';
import { orderPayments } from './payments.table';
import { buildOrder, makeOperator, storeFile } from './payments-test-support';

const uploadDir = mkdtempSync(path.join(tmpdir(), 'payments-test-'));
const SECRET_KEY = 'sk_test_fake_123';
const WEBHOOK_SECRET = 'whsec_test_456';

/** A local stand-in for the provider's Checkout API that checks every request it gets. */
interface SeenRequest {
  method: string;
  url: string;
  authorization: string;
  contentType: string;
  form: URLSearchParams;
}
const seen: SeenRequest[] = [];
let sessionCounter = 0;
let provider: Server;
const savedEnv = { ...process.env };

async function readBody(request: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of request) body += chunk;
  return body;
}

// Registered before useTestApp's hooks, so the app reads the provider's address at start.
beforeAll(async () => {
  provider = createServer(async (request, response) => {
    const form = new URLSearchParams(await readBody(request));
    seen.push({
      method: request.method ?? '',
      url: request.url ?? '',
      authorization: request.headers.authorization ?? '',
      contentType: request.headers['content-type'] ?? '',
      form,
    });
    const okRequest =
      request.method === 'POST' &&
      request.url === '/v1/checkout/sessions' &&
      request.headers.authorization === `Bearer ${SECRET_KEY}` &&
      request.headers['content-type'] === 'application/x-www-form-urlencoded';
    response.writeHead(okRequest ? 200 : 401, { 'content-type': 'application/json' });
    const id = `cs_test_${++sessionCounter}`;
    response.end(JSON.stringify(okRequest ? { id, url: `https://pay.example/${id}` } : { error: 'refused' }));
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  process.env.PAYMENT_API_URL = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/`;
  process.env.PAYMENT_SECRET_KEY = SECRET_KEY;
  process.env.PAYMENT_WEBHOOK_SECRET = WEBHOOK_SECRET;
  process.env.PAYMENT_TRANSFER_DETAILS = 'Maybank 5140 0000 0000, Coldchain Sdn Bhd';
});
afterAll(async () => {
  process.env = savedEnv;
  await new Promise((resolve) => provider.close(resolve));
});

describe('orders list and payment', () => {
  const ctx = useTestApp({ uploadDir });

  async function company() {
    const c = await buildCompany(ctx.app.db);
    return { ...c, token: await login(ctx.app, c.admin.account) };
  }
  const list = async (token: string, body: Record<string, unknown> = {}) =>
    (await call<Page<OrderView>>(ctx.app, '/api/order/pageServiceList', body, { token })).body.data;

  function event(
    sessionId: string,
    orderId: string,
    amountCents: number,
    extra: Record<string, unknown> = {},
  ) {
    return JSON.stringify({
      id: `evt_${sessionId}`,
      type: 'checkout.session.completed',
      data: {
        object: {
          id: sessionId,
          client_reference_id: orderId,
          payment_status: 'paid',
          amount_total: amountCents,
          currency: 'myr',
          ...extra,
        },
      },
    });
  }
  function deliver(body: string, signature?: string) {
    const t = String(Math.floor(Date.now() / 1000));
    return ctx.app.inject({
      method: 'POST',
      url: '/api/payment/webhook',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': signature ?? `t=${t},v1=${signWebhook(WEBHOOK_SECRET, t, body)}`,
      },
      payload: body,
    });
  }

  it('buys message credits online: the checkout request is as the provider expects, and the webhook pays once', async () => {
    const c = await company();
    const options = await call<PaymentOptionsView>(
      ctx.app,
      '/api/order/paymentOptions',
      {},
      { token: c.token },
    );
    expect(options.body.data).toMatchObject({
      online: true,
      creditUnitPrice: 0.1,
      transferDetails: expect.stringContaining('Maybank'),
    });
    const balanceBefore = await creditBalance(ctx.app.db, c.id);
    const bought = await call<{ id: string }>(
      ctx.app,
      '/api/order/buyCredits',
      { credits: 2500 },
      { token: c.token },
    );
    expect(bought.body.msgCode).toBe(200);
    const orderId = bought.body.data.id;
    const [order] = (await list(c.token)).list;
    expect(order).toMatchObject({
      kind: 'credits',
      credits: 2500,
      amount: 250,
      status: OrderStatus.Pending,
      invoiceStatus: 0,
    });

    const pay = await call<{ url: string }>(
      ctx.app,
      '/api/order/payOnline',
      { id: orderId },
      { token: c.token },
    );
    expect(pay.body.msgCode).toBe(200);
    const request = seen.at(-1)!;
    expect(request).toMatchObject({
      method: 'POST',
      url: '/v1/checkout/sessions',
      authorization: `Bearer ${SECRET_KEY}`,
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(request.form.get('mode')).toBe('payment');
    expect(request.form.get('client_reference_id')).toBe(orderId);
    expect(request.form.get('line_items[0][price_data][unit_amount]')).toBe('25000');
    expect(request.form.get('line_items[0][price_data][currency]')).toBe('myr');
    expect(request.form.get('success_url')).toContain(`order=${orderId}`);
    const sessionId = pay.body.data.url.split('/').at(-1)!;
    expect(pay.body.data.url).toBe(`https://pay.example/${sessionId}`);

    // A forged or stale signature pays nothing.
    const body = event(sessionId, orderId, 25_000);
    expect((await deliver(body, 't=1,v1=00')).statusCode).toBe(400);
    const old = String(Math.floor(Date.now() / 1000) - 301);
    expect((await deliver(body, `t=${old},v1=${signWebhook(WEBHOOK_SECRET, old, body)}`)).statusCode).toBe(
      400,
    );
    expect(
      (await deliver(body, `t=${old.slice(0, -1)}9,v1=${signWebhook('wrong', old, body)}`)).statusCode,
    ).toBe(400);
    // A wrong amount for the session pays nothing either.
    expect((await deliver(event(sessionId, orderId, 100))).json().data).toMatchObject({
      outcome: 'mismatch',
    });
    expect((await list(c.token)).list[0]!.status).toBe(OrderStatus.Pending);

    // The same event three times, two of them at once: paid once, credited once.
    const [first, second] = await Promise.all([deliver(body), deliver(body)]);
    const third = await deliver(body);
    expect([first, second, third].map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect([first, second, third].map((r) => r.json().data.outcome).sort()).toEqual([
      'already-paid',
      'already-paid',
      'paid',
    ]);
    expect((await list(c.token)).list[0]).toMatchObject({
      status: OrderStatus.Approved,
      paymentMethod: 'online',
    });
    expect(await creditBalance(ctx.app.db, c.id)).toBe(balanceBefore + 2500);
    const grants = await ctx.app.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.companyId, c.id), eq(creditLedger.amount, 2500)));
    expect(grants).toHaveLength(1);
    const approvals = await ctx.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, orderId), eq(auditLog.action, 'order.approve')));
    expect(approvals).toHaveLength(1);
    const [payment] = await ctx.app.db
      .select()
      .from(orderPayments)
      .where(eq(orderPayments.orderId, Number(orderId)));
    expect(payment?.paidAt).not.toBeNull();
    // The ledger names the order the credits were bought with.
    const ledger = await call<Page<{ amount: number; order: { id: string } | null }>>(
      ctx.app,
      '/api/credit/pageLedger',
      {},
      { token: c.token },
    );
    expect(ledger.body.data.list.find((r) => r.amount === 2500)?.order?.id).toBe(orderId);
  });

  it('pays by bank transfer with a proof image that the operator approves or rejects with a reason', async () => {
    const c = await company();
    const opUser = await buildUser(ctx.app.db);
    await makeOperator(ctx.app.db, opUser.account);
    const op = await login(ctx.app, opUser.account);
    const { id } = (
      await call<{ id: string }>(ctx.app, '/api/order/buyCredits', { credits: 100 }, { token: c.token })
    ).body.data;
    const missing = await call(
      ctx.app,
      '/api/order/payByTransfer',
      { id, proofImage: '/files/0123456789abcdef0123456789abcdef.png' },
      { token: c.token },
    );
    expect(missing.body.msgContent).toBe('The uploaded image was not found; upload it again');
    const proof = await storeFile(ctx.app.files, 'png');
    expect(
      (await call(ctx.app, '/api/order/payByTransfer', { id, proofImage: proof }, { token: c.token })).body
        .msgCode,
    ).toBe(200);
    expect((await list(c.token)).list[0]).toMatchObject({
      paymentMethod: 'transfer',
      proofImage: proof,
      status: OrderStatus.Pending,
    });
    // The company cannot approve its own order.
    const selfApprove = await call(ctx.app, '/api/operator/order/approveOrder', { id }, { token: c.token });
    expect(selfApprove.body.msgContent).toBe('Only platform operators may do this');
    const pending = await call<Page<OrderView & { companyName: string }>>(
      ctx.app,
      '/api/operator/order/pageOrders',
      { status: 1 },
      { token: op },
    );
    expect(pending.body.data.list.find((o) => o.id === id)).toMatchObject({
      proofImage: proof,
      companyName: expect.any(String),
    });
    const noReason = await call(
      ctx.app,
      '/api/operator/order/rejectOrder',
      { id, reason: '' },
      { token: op },
    );
    expect(noReason.body.msgContent).toBe('Enter the reason for rejecting');
    const rejected = await call(
      ctx.app,
      '/api/operator/order/rejectOrder',
      { id, reason: 'Transfer not received' },
      { token: op },
    );
    expect(rejected.body.msgCode).toBe(200);
    expect((await list(c.token)).list[0]).toMatchObject({
      status: OrderStatus.Rejected,
      rejectReason: 'Transfer not received',
    });
    expect(
      (await call(ctx.app, '/api/operator/order/approveOrder', { id }, { token: op })).body.msgContent,
    ).toBe('Only an order pending payment or approval can be paid');
    // A second order is approved, and the ledger and balance agree with it.
    const second = (
      await call<{ id: string }>(ctx.app, '/api/order/buyCredits', { credits: 300 }, { token: c.token })
    ).body.data.id;
    const before = await creditBalance(ctx.app.db, c.id);
    expect(
      (await call(ctx.app, '/api/operator/order/approveOrder', { id: second }, { token: op })).body.msgCode,
    ).toBe(200);
    expect(await creditBalance(ctx.app.db, c.id)).toBe(before + 300);
    const audit = await ctx.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, second), eq(auditLog.action, 'order.approve')));
    expect(audit[0]?.userId).toBe(opUser.id);
  });

  it("lets the operator set and take away a pending order's due date, which starts its late fee", async () => {
    const c = await company();
    const opUser = await buildUser(ctx.app.db);
    await makeOperator(ctx.app.db, opUser.account);
    const op = await login(ctx.app, opUser.account);
    const pending = await buildOrder(ctx.app.db, c.id, 100_000, { status: OrderStatus.Pending });
    const id = String(pending);
    const due = new Date(Date.now() - 4 * 86_400_000).toISOString().slice(0, 10);
    const set = await call<{ dueDate: string; lateFee: number }>(
      ctx.app,
      '/api/operator/order/setDueDate',
      { id, dueDate: due },
      { token: op },
    );
    expect(set.body.data).toMatchObject({ dueDate: due, lateFee: 2 });
    // The company sees it on its order: RM1,000 four days late, 1000 x 5/10000 x 4 = RM2.00.
    expect((await list(c.token)).list.find((o) => o.id === id)).toMatchObject({ dueDate: due, lateFee: 2 });
    const cleared = await call<{ dueDate: string | null; lateFee: number }>(
      ctx.app,
      '/api/operator/order/setDueDate',
      { id, dueDate: null },
      { token: op },
    );
    expect(cleared.body.data).toMatchObject({ dueDate: null, lateFee: 0 });
    const audit = await ctx.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.companyId, c.id), eq(auditLog.action, 'order.setDueDate')));
    expect(audit.map((a) => a.userId)).toEqual([opUser.id, opUser.id]);
    // Refusals: a bad day (in the caller's language), a paid order, a company caller.
    const bad = await call(
      ctx.app,
      '/api/operator/order/setDueDate',
      { id, dueDate: '2026-02-30' },
      { token: op, language: 'cn' },
    );
    expect(bad.body.msgContent).toBe('到期日：请选择日期（YYYY-MM-DD），或不设置');
    const paid = await buildOrder(ctx.app.db, c.id, 100_000);
    expect(
      (
        await call(
          ctx.app,
          '/api/operator/order/setDueDate',
          { id: String(paid), dueDate: due },
          { token: op },
        )
      ).body.msgContent,
    ).toBe('Only an order pending payment or approval can be given a due date');
    expect(
      (await call(ctx.app, '/api/operator/order/setDueDate', { id, dueDate: due }, { token: c.token })).body
        .msgCode,
    ).not.toBe(200);
  });

  it('charges the late fee due when the company pays, keeps it on the paid order, and invoices it', async () => {
    const c = await company();
    // RM1,000 of credits, due ten days ago: 1000 x 5/10000 x 10 = RM5.00 late.
    const { id } = (
      await call<{ id: string }>(ctx.app, '/api/order/buyCredits', { credits: 10_000 }, { token: c.token })
    ).body.data;
    const due = new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10);
    await ctx.app.db.insert(orderPayments).values({ orderId: Number(id), companyId: c.id, dueDate: due });
    const pay = await call<{ url: string }>(ctx.app, '/api/order/payOnline', { id }, { token: c.token });
    expect(pay.body.msgCode).toBe(200);
    expect(seen.at(-1)!.form.get('line_items[0][price_data][unit_amount]')).toBe('100500');
    const sessionId = pay.body.data.url.split('/').at(-1)!;
    // The principal alone does not pay a checkout that charged the late fee too.
    expect((await deliver(event(sessionId, id, 100_000))).json().data).toMatchObject({ outcome: 'mismatch' });
    expect((await deliver(event(sessionId, id, 100_500))).json().data).toMatchObject({ outcome: 'paid' });
    // Paid: the order shows the late fee paid with it, and an invoice covers both.
    expect((await list(c.token)).list.find((o) => o.id === id)).toMatchObject({
      status: OrderStatus.Approved,
      amount: 1000,
      lateFee: 5,
    });
    const invoiceable = await call<{ id: string; amount: number; lateFee: number }[]>(
      ctx.app,
      '/api/invoice/invoiceableOrders',
      {},
      { token: c.token },
    );
    expect(invoiceable.body.data.find((o) => o.id === id)).toMatchObject({ amount: 1000, lateFee: 5 });
    const applied = await call<{ id: string }>(
      ctx.app,
      '/api/invoice/applyInvoice',
      { orderIds: [id], type: 'electronic', title: 'Acme Cold', email: 'finance@acme.test' },
      { token: c.token },
    );
    expect(applied.body.msgCode).toBe(200);
    const invoices = await call<Page<{ amount: number; orders: { lateFee: number }[] }>>(
      ctx.app,
      '/api/invoice/pageInvoices',
      { pageNum: 1, pageSize: 10 },
      { token: c.token },
    );
    expect(invoices.body.data.list[0]).toMatchObject({ amount: 1005, orders: [{ lateFee: 5 }] });

    // A bank transfer fixes the late fee on the day the proof is sent.
    const second = (
      await call<{ id: string }>(ctx.app, '/api/order/buyCredits', { credits: 10_000 }, { token: c.token })
    ).body.data.id;
    await ctx.app.db.insert(orderPayments).values({ orderId: Number(second), companyId: c.id, dueDate: due });
    const proof = await storeFile(ctx.app.files, 'png');
    await call(ctx.app, '/api/order/payByTransfer', { id: second, proofImage: proof }, { token: c.token });
    const [stored] = await ctx.app.db
      .select()
      .from(orderPayments)
      .where(eq(orderPayments.orderId, Number(second)));
    expect(stored?.lateFeeCents).toBe(500);
  });

  it('cancels a pending order only, and refuses paying a cancelled one', async () => {
    const c = await company();
    const { id } = (
      await call<{ id: string }>(ctx.app, '/api/order/buyCredits', { credits: 100 }, { token: c.token })
    ).body.data;
    expect(
      (await call(ctx.app, '/api/order/cancelServiceOrder', { id }, { token: c.token })).body.msgCode,
    ).toBe(200);
    expect(
      (await call(ctx.app, '/api/order/cancelServiceOrder', { id }, { token: c.token })).body.msgContent,
    ).toBe('Only an order pending payment or approval can be cancelled');
    expect((await call(ctx.app, '/api/order/payOnline', { id }, { token: c.token })).body.msgContent).toBe(
      'Only an order pending payment or approval can be paid',
    );
    expect(
      (await call(ctx.app, '/api/order/buyCredits', { credits: 99 }, { token: c.token })).body.msgContent,
    ).toBe('Buy a whole number of message credits, from 100 to 1,000,000');
  });

  it('lists every kind of order with its late fee past the due date, scoped to the caller', async () => {
    const c = await company();
    const other = await company();
    const overdue = await buildOrder(ctx.app.db, c.id, 100_000, { status: OrderStatus.Pending });
    const due = new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10);
    await ctx.app.db.insert(orderPayments).values({ orderId: overdue, companyId: c.id, dueDate: due });
    await buildOrder(ctx.app.db, c.id, 5_000, { kind: 'recovery' });
    const rows = (await list(c.token)).list;
    expect(rows).toHaveLength(2);
    // RM1,000 ten days late: 1000 x 5/10000 x 10 = RM5.00.
    expect(rows.find((o) => o.id === String(overdue))).toMatchObject({ dueDate: due, lateFee: 5 });
    expect((await list(c.token, { kind: 'recovery' })).list).toHaveLength(1);
    expect((await list(other.token)).total).toBe(0);
    // Someone else's order is out of reach for paying and cancelling.
    expect(
      (await call(ctx.app, '/api/order/cancelServiceOrder', { id: String(overdue) }, { token: other.token }))
        .body.msgContent,
    ).toBe('The order does not exist');
    // A department member without billing rights sees and buys nothing.
    const dept = await buildDepartment(ctx.app.db, c.id);
    const role = await buildRole(ctx.app.db, c.id, dept.id, ['device:view']);
    const member = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, c.id, member.id, false, { departmentId: dept.id, roleId: role.id });
    const memberToken = await login(ctx.app, member.account);
    for (const url of ['/api/order/pageServiceList', '/api/order/buyCredits']) {
      const res = await call(ctx.app, url, { credits: 100 }, { token: memberToken });
      expect(res.body.msgContent).toBe('No permission for this service or operation');
    }
  });
});

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  type InvoiceableOrderView,
  InvoiceStatus,
  type InvoiceView,
  OrderStatus,
  type OrderView,
  type Page,
} from '@coldchain/contract';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { addMember, buildCompany, buildDepartment, buildRole, buildUser, login } from '../../test/factories';
import { startSmtpSink } from '../../test/smtp-sink';
import { auditLog } from '../audit/audit.table';
import { outboxMessages } from '../notify/outbox.table';
import { buildOrder, makeOperator, storeFile } from './payments-test-support';

const uploadDir = mkdtempSync(path.join(tmpdir(), 'invoices-test-'));
const smtp = await startSmtpSink();

describe('invoice applications', () => {
  const ctx = useTestApp({ uploadDir, smtpUrl: smtp.url });
  afterAll(() => smtp.close());

  async function company() {
    const c = await buildCompany(ctx.app.db);
    return { ...c, token: await login(ctx.app, c.admin.account) };
  }
  async function operator() {
    const user = await buildUser(ctx.app.db);
    await makeOperator(ctx.app.db, user.account);
    return login(ctx.app, user.account);
  }
  const apply = (token: string, orderIds: (number | string)[], extra: Record<string, unknown> = {}) =>
    call<{ id: string }>(
      ctx.app,
      '/api/invoice/applyInvoice',
      {
        orderIds: orderIds.map(String),
        type: 'electronic',
        title: 'Acme Sdn Bhd',
        email: 'finance@acme.test',
        ...extra,
      },
      { token, ...(extra.language ? { language: extra.language as 'cn' } : {}) },
    );
  const page = async (token: string, body: Record<string, unknown> = {}) =>
    (await call<Page<InvoiceView>>(ctx.app, '/api/invoice/pageInvoices', body, { token })).body.data;

  it('refuses less than RM200 in all with the spec message, in English and in yuan in Chinese', async () => {
    const c = await company();
    const a = await buildOrder(ctx.app.db, c.id, 15_000);
    const b = await buildOrder(ctx.app.db, c.id, 4_999);
    const en = await apply(c.token, [a, b]);
    expect(en.body).toMatchObject({ msgCode: 500, msgContent: 'Minimum invoice amount RM200' });
    const cn = await call(
      ctx.app,
      '/api/invoice/applyInvoice',
      { orderIds: [String(a), String(b)], type: 'electronic', title: 'T', email: 'a@b.test' },
      { token: c.token, language: 'cn' },
    );
    expect(cn.body.msgContent).toBe('最低开票金额为200元');
    const c2 = await buildOrder(ctx.app.db, c.id, 1);
    const exact = await apply(c.token, [a, b, c2]);
    expect(exact.body.msgCode).toBe(200);
    const [app] = (await page(c.token)).list;
    expect(app).toMatchObject({
      amount: 200,
      status: InvoiceStatus.InProgress,
      type: 'electronic',
      title: 'Acme Sdn Bhd',
    });
    expect(app!.orders.map((o) => o.id).sort()).toEqual([a, b, c2].map(String).sort());
  });

  it('takes only paid orders of the company, each on one live application at most', async () => {
    const c = await company();
    const other = await company();
    const paid = await buildOrder(ctx.app.db, c.id, 30_000);
    const pending = await buildOrder(ctx.app.db, c.id, 30_000, { status: OrderStatus.Pending });
    const foreign = await buildOrder(ctx.app.db, other.id, 30_000);
    expect((await apply(c.token, [pending])).body.msgContent).toMatch(
      /is not paid or is already on an invoice/,
    );
    expect((await apply(c.token, [foreign])).body.msgContent).toBe('The order does not exist');
    const listed = await call<InvoiceableOrderView[]>(
      ctx.app,
      '/api/invoice/invoiceableOrders',
      {},
      { token: c.token },
    );
    expect(listed.body.data.map((o) => o.id)).toEqual([String(paid)]);
    // Two applications over the same order at once: one wins.
    const results = await Promise.all([apply(c.token, [paid]), apply(c.token, [paid])]);
    expect(results.map((r) => r.body.msgCode).sort()).toEqual([200, 500]);
    const listedAfter = await call<InvoiceableOrderView[]>(
      ctx.app,
      '/api/invoice/invoiceableOrders',
      {},
      { token: c.token },
    );
    expect(listedAfter.body.data).toEqual([]);
    const orders = await call<Page<OrderView>>(ctx.app, '/api/order/pageServiceList', {}, { token: c.token });
    expect(orders.body.data.list.find((o) => o.id === String(paid))?.invoiceStatus).toBe(
      InvoiceStatus.InProgress,
    );
    // Cancelling frees the order for a new application.
    const id = results.find((r) => r.body.msgCode === 200)!.body.data.id;
    expect((await call(ctx.app, '/api/invoice/cancelInvoice', { id }, { token: c.token })).body.msgCode).toBe(
      200,
    );
    expect(
      (await call(ctx.app, '/api/invoice/cancelInvoice', { id }, { token: c.token })).body.msgContent,
    ).toBe('Only an invoice application in progress can be changed');
    expect((await page(c.token)).list[0]!.status).toBe(InvoiceStatus.Cancelled);
    expect((await apply(c.token, [paid])).body.msgCode).toBe(200);
  });

  it('validates the fields by name and the proof image as an uploaded image', async () => {
    const c = await company();
    const paid = await buildOrder(ctx.app.db, c.id, 30_000);
    expect((await apply(c.token, [paid], { email: '' })).body.msgContent).toBe(
      'Enter a correct e-mail address for the electronic invoice',
    );
    expect((await apply(c.token, [paid], { type: 'paper', email: undefined })).body.msgContent).toBe(
      'A paper invoice needs the mailing address, recipient and contact',
    );
    expect((await apply(c.token, [paid], { title: '' })).body.msgContent).toBe('Invoice title is required');
    expect((await apply(c.token, [paid], { proofImage: '/files/not-ours.png' })).body.msgContent).toBe(
      'Proof image: upload a JPG or PNG image',
    );
    const pdf = await storeFile(ctx.app.files, 'pdf');
    expect((await apply(c.token, [paid], { proofImage: pdf })).body.msgCode).toBe(500);
    const png = await storeFile(ctx.app.files, 'png');
    const ok = await apply(c.token, [paid], {
      type: 'paper',
      proofImage: png,
      mailingAddress: '1 Jalan Ampang',
      postcode: '50450',
      recipient: 'Aisyah',
      contact: '+60123456789',
      taxpayerId: 'C1234567890',
      bank: 'Maybank',
      account: '5140-1234-5678',
      companyAddress: 'KL',
      companyPhone: '+6031234',
    });
    expect(ok.body.msgCode).toBe(200);
    expect((await page(c.token)).list[0]).toMatchObject({
      proofImage: png,
      postcode: '50450',
      bank: 'Maybank',
    });
  });

  it('is issued by an operator with a PDF the company downloads, e-mailed when electronic', async () => {
    const c = await company();
    const other = await company();
    const op = await operator();
    const paid = await buildOrder(ctx.app.db, c.id, 25_050);
    const { id } = (await apply(c.token, [paid])).body.data;
    const pdf = await storeFile(ctx.app.files, 'pdf');
    const png = await storeFile(ctx.app.files, 'png');
    // Operator calls are refused to company users, even the company's administrator.
    const refused = await call(
      ctx.app,
      '/api/operator/invoice/issueInvoice',
      { id, pdfFile: pdf },
      { token: c.token },
    );
    expect(refused.body).toMatchObject({ msgCode: 500, msgContent: 'Only platform operators may do this' });
    const wrongType = await call(
      ctx.app,
      '/api/operator/invoice/issueInvoice',
      { id, pdfFile: png },
      { token: op },
    );
    expect(wrongType.body.msgContent).toBe('Upload the invoice as a PDF file');
    // Not issued yet: nothing to download.
    expect(
      (await call(ctx.app, '/api/invoice/downloadInvoice', { id }, { token: c.token })).body.msgContent,
    ).toBe('The invoice has not been issued yet');
    const all = await call<Page<InvoiceView & { companyName: string }>>(
      ctx.app,
      '/api/operator/invoice/pageInvoices',
      {},
      { token: op },
    );
    expect(all.body.data.list.find((i) => i.id === id)).toMatchObject({
      amount: 250.5,
      companyName: expect.any(String),
    });
    const issued = await call(
      ctx.app,
      '/api/operator/invoice/issueInvoice',
      { id, pdfFile: pdf },
      { token: op },
    );
    expect(issued.body.msgCode).toBe(200);
    expect(
      (await call(ctx.app, '/api/operator/invoice/issueInvoice', { id, pdfFile: pdf }, { token: op })).body
        .msgContent,
    ).toBe('Only an invoice application in progress can be changed');
    expect((await call(ctx.app, '/api/invoice/cancelInvoice', { id }, { token: c.token })).body.msgCode).toBe(
      500,
    );
    expect((await page(c.token)).list[0]).toMatchObject({ status: InvoiceStatus.Generated, hasPdf: true });
    const download = await ctx.app.inject({
      method: 'POST',
      url: '/api/invoice/downloadInvoice',
      headers: { 'content-type': 'application/json', accessToken: c.token, platform: '1' },
      payload: JSON.stringify({ id }),
    });
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.body.startsWith('%PDF-')).toBe(true);
    // Another company sees nothing of it.
    expect(
      (await call(ctx.app, '/api/invoice/downloadInvoice', { id }, { token: other.token })).body.msgContent,
    ).toBe('The invoice application does not exist');
    expect((await page(other.token)).total).toBe(0);
    const mails = await ctx.app.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.recipient, 'finance@acme.test'));
    expect(mails.at(-1)?.body).toContain('RM250.50');
    // The e-mail itself carries the invoice PDF.
    const sent = smtp.received.filter((m) => m.to.includes('finance@acme.test')).at(-1);
    expect(sent?.text).toContain('RM250.50');
    expect(sent?.raw).toMatch(/Content-Type: application\/pdf; name=invoice-\d+\.pdf/);
    expect(sent?.raw).toContain('JVBERi0'); // "%PDF-" in base64
    expect(mails.at(-1)?.body).toContain('250.50元');
    const audits = await ctx.app.db.select().from(auditLog).where(eq(auditLog.targetId, id));
    expect(audits.filter((x) => x.targetType === 'invoice').map((x) => x.action)).toEqual([
      'invoice.apply',
      'invoice.issue',
    ]);
  });

  it('refuses every operator call to company users, administrators included', async () => {
    const c = await company();
    const paid = await buildOrder(ctx.app.db, c.id, 20_000);
    const { id } = (await apply(c.token, [paid])).body.data;
    const pdf = await storeFile(ctx.app.files, 'pdf');
    const calls: [string, Record<string, unknown>][] = [
      ['/api/operator/invoice/pageInvoices', {}],
      ['/api/operator/invoice/issueInvoice', { id, pdfFile: pdf }],
      ['/api/operator/invoice/rejectInvoice', { id, reason: 'x' }],
      ['/api/operator/order/pageOrders', {}],
      ['/api/operator/order/approveOrder', { id: String(paid) }],
      ['/api/operator/order/rejectOrder', { id: String(paid), reason: 'x' }],
    ];
    for (const [url, body] of calls) {
      const res = await call(ctx.app, url, body, { token: c.token });
      expect(res.body, url).toMatchObject({
        msgCode: 500,
        msgContent: 'Only platform operators may do this',
        data: null,
      });
    }
    expect((await page(c.token)).list[0]!.status).toBe(InvoiceStatus.InProgress);
  });

  it('is rejected by an operator with a reason, freeing the orders', async () => {
    const c = await company();
    const op = await operator();
    const paid = await buildOrder(ctx.app.db, c.id, 20_000);
    const { id } = (await apply(c.token, [paid])).body.data;
    const noReason = await call(
      ctx.app,
      '/api/operator/invoice/rejectInvoice',
      { id, reason: ' ' },
      { token: op },
    );
    expect(noReason.body.msgContent).toBe('Enter the reason for rejecting');
    expect(
      (
        await call(
          ctx.app,
          '/api/operator/invoice/rejectInvoice',
          { id, reason: 'Wrong taxpayer ID' },
          { token: op },
        )
      ).body.msgCode,
    ).toBe(200);
    expect((await page(c.token)).list[0]).toMatchObject({
      status: InvoiceStatus.Rejected,
      rejectReason: 'Wrong taxpayer ID',
    });
    expect((await apply(c.token, [paid])).body.msgCode).toBe(200);
  });

  it('shows a department member the applications of their department; the department view filters by it', async () => {
    const c = await company();
    const dept = await buildDepartment(ctx.app.db, c.id);
    const role = await buildRole(ctx.app.db, c.id, dept.id, ['invoice:view', 'invoice:edit']);
    const member = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, c.id, member.id, false, { departmentId: dept.id, roleId: role.id });
    const memberToken = await login(ctx.app, member.account);
    const own = await buildOrder(ctx.app.db, c.id, 20_000, { createdBy: member.id });
    const companyWide = await buildOrder(ctx.app.db, c.id, 20_000);
    expect((await apply(memberToken, [companyWide])).body.msgContent).toBe('The order does not exist');
    expect((await apply(memberToken, [own])).body.msgCode).toBe(200);
    const adminOrder = await buildOrder(ctx.app.db, c.id, 20_000);
    expect((await apply(c.token, [adminOrder])).body.msgCode).toBe(200);
    expect((await page(memberToken)).total).toBe(1);
    expect((await page(c.token)).total).toBe(2);
    expect((await page(c.token, { departmentId: String(dept.id) })).list.map((i) => i.applicantName)).toEqual(
      [member.name],
    );
    // Without invoice:edit a member may look but not apply.
    const viewer = await buildUser(ctx.app.db);
    const viewRole = await buildRole(ctx.app.db, c.id, dept.id, ['invoice:view']);
    await addMember(ctx.app.db, c.id, viewer.id, false, { departmentId: dept.id, roleId: viewRole.id });
    const viewerToken = await login(ctx.app, viewer.account);
    expect((await apply(viewerToken, [own])).body.msgContent).toBe(
      'No permission for this service or operation',
    );
  });
});

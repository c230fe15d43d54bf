import type { DeliveryDetail, DeliveryListItem, Page } from '@coldchain/contract';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { buildCompany, buildDevice, login } from '../../test/factories';
import { postReadings } from '../alarms/alarm-test-support';
import { alarmRecords, alarmSettings } from '../alarms/alarms.table';
import { auditLog } from '../audit/audit.table';
import { companies } from '../companies/companies.table';
import { departments } from '../org/org.table';
import { pdfText, postForFile } from '../reports/report-test-support';
import { logisticsDeliveries, logisticsReceiptLinks } from './deliveries.table';

const SERVICES = ['service:logistics'];
const MIN = 60_000;

describe('delivery and receiving orders', () => {
  const ctx = useTestApp();

  async function companyWithCaller(name: string) {
    const company = await buildCompany(ctx.app.db, { name, services: SERVICES });
    const as = { token: await login(ctx.app, company.admin.account), companyId: company.id };
    const post = <T>(url: string, body: unknown, language: 'en' | 'cn' = 'en') =>
      call<T>(ctx.app, url, body, { ...as, language });
    return { company, as, post };
  }

  async function rootCode(companyId: number) {
    const [root] = await ctx.app.db
      .select({ code: departments.code })
      .from(departments)
      .where(and(eq(departments.companyId, companyId), isNull(departments.parentId)));
    return root!.code;
  }

  /** A sender with a warehouse, a clinic address of `receiver` (when given) and a truck logger. */
  async function setUp(receiverCompanyId?: number) {
    const sender = await companyWithCaller('Sender Co');
    const address = async (name: string, receiverCompanyCode?: string) =>
      (
        await sender.post<{ id: string }>('/api/logistics/saveAddress', {
          name,
          contact: 'Li Wei',
          phone: '13800138000',
          address: `${name} road`,
          ...(receiverCompanyCode ? { receiverCompanyCode } : {}),
        })
      ).body.data.id;
    const warehouse = await address('Warehouse');
    const clinic = await address('Clinic', receiverCompanyId ? await rootCode(receiverCompanyId) : undefined);
    const logger = await buildDevice(ctx.app.db, sender.company.id, { name: 'Truck logger' });
    const order = (fields: object = {}) => ({
      senderAddressId: warehouse,
      receiverAddressId: clinic,
      goods: [{ name: 'Vaccine', quantity: '200 vials', batch: 'L42' }],
      tempMin: 2,
      tempMax: 8,
      deviceIds: [logger.id],
      carrier: 'Cold Trucks Ltd',
      vehicle: 'A-12345',
      ...fields,
    });
    return { ...sender, warehouse, clinic, logger, order };
  }

  const msg = (res: { body: { msgCode: number; msgContent: string } }) => res.body.msgContent;

  it('walks created, in transit, arrived and refuses steps out of order', async () => {
    const s = await setUp();
    const saved = await s.post<{ id: string; orderNo: string }>('/api/logistics/saveDelivery', s.order());
    expect(saved.body.msgCode).toBe(200);
    const { id, orderNo } = saved.body.data;
    expect(orderNo).toMatch(/^DO\d{8}\d{6}$/);
    // An edit while created is fine; arriving before departing is refused, in the caller's language.
    expect((await s.post('/api/logistics/saveDelivery', s.order({ id, vehicle: 'B-1' }))).body.msgCode).toBe(
      200,
    );
    expect(msg(await s.post('/api/logistics/arriveDelivery', { id }))).toBe(
      'Not possible: the order is created',
    );
    expect(msg(await s.post('/api/logistics/arriveDelivery', { id }, 'cn'))).toBe('无法操作：运单已创建');

    expect((await s.post('/api/logistics/departDelivery', { id })).body.msgCode).toBe(200);
    expect(msg(await s.post('/api/logistics/departDelivery', { id }))).toBe(
      'Not possible: the order is in transit',
    );
    expect(msg(await s.post('/api/logistics/saveDelivery', s.order({ id })))).toBe(
      'Not possible: the order is in transit',
    );
    expect((await s.post('/api/logistics/arriveDelivery', { id })).body.msgCode).toBe(200);
    expect(msg(await s.post('/api/logistics/cancelDelivery', { id }))).toBe(
      'Not possible: the order is arrived',
    );

    const detail = await s.post<DeliveryDetail>('/api/logistics/deliveryDetail', { id });
    expect(detail.body.data).toMatchObject({
      state: 3,
      orderNo,
      vehicle: 'B-1',
      role: 'sender',
      serials: [s.logger.serial],
    });
    expect(detail.body.data.departTime).toBeLessThanOrEqual(detail.body.data.arriveTime!);
    const page = await s.post<Page<DeliveryListItem>>('/api/logistics/pageDeliveries', { keyword: orderNo });
    expect(page.body.data.list.map((d) => d.state)).toEqual([3]);

    // A created order may be cancelled; every step is in the operation log.
    const other = await s.post<{ id: string }>('/api/logistics/saveDelivery', s.order());
    expect((await s.post('/api/logistics/cancelDelivery', { id: other.body.data.id })).body.msgCode).toBe(
      200,
    );
    const actions = await ctx.app.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.companyId, s.company.id), eq(auditLog.targetType, 'logisticsDelivery')));
    expect(actions.map((a) => a.action).sort()).toEqual(
      [
        'logisticsDelivery.add',
        'logisticsDelivery.add',
        'logisticsDelivery.arrive',
        'logisticsDelivery.cancel',
        'logisticsDelivery.depart',
        'logisticsDelivery.edit',
      ].sort(),
    );
    // Bad input names the field in the caller's language.
    expect(msg(await s.post('/api/logistics/saveDelivery', s.order({ tempMin: 9 })))).toContain(
      'The lowest temperature must be below the highest',
    );
    // An address a delivery order names cannot be deleted.
    expect((await s.post('/api/logistics/deleteAddress', { id: s.warehouse })).body.msgCode).not.toBe(200);
  });

  it('keeps a monitor on one active shipment at a time, also when two saves race', async () => {
    const s = await setUp();
    const first = await s.post<{ id: string }>('/api/logistics/saveDelivery', s.order());
    const refused = await s.post('/api/logistics/saveDelivery', s.order());
    expect(msg(refused)).toBe(`These monitors are already on another active shipment: ${s.logger.serial}`);
    // Free again once the first arrives.
    await s.post('/api/logistics/departDelivery', { id: first.body.data.id });
    expect(msg(await s.post('/api/logistics/saveDelivery', s.order()))).toContain(
      'already on another active',
    );
    await s.post('/api/logistics/arriveDelivery', { id: first.body.data.id });

    const raced = await Promise.all([
      s.post('/api/logistics/saveDelivery', s.order()),
      s.post('/api/logistics/saveDelivery', s.order()),
      s.post('/api/logistics/saveDelivery', s.order()),
    ]);
    expect(raced.map((r) => r.body.msgCode).sort()).toEqual([200, 500, 500]);
    const [active] = await ctx.app.db
      .execute<{ n: number }>(
        sql`select count(*)::int as n from logistics_delivery_devices where device_id = ${Number(s.logger.id)} and active`,
      )
      .then((r) => (r as unknown as { rows: { n: number }[] }).rows ?? (r as unknown as { n: number }[]));
    expect(Number(active!.n)).toBe(1);
  });

  it('raises alarms through the alarm engine while in transit and ends them at arrival', async () => {
    const s = await setUp();
    const { id } = (await s.post<{ id: string }>('/api/logistics/saveDelivery', s.order())).body.data;
    await s.post('/api/logistics/departDelivery', { id });
    // The device's own default settings stay; the shipment adds its own range.
    const shipmentSettings = () =>
      ctx.app.db
        .select()
        .from(alarmSettings)
        .where(
          and(eq(alarmSettings.deviceId, Number(s.logger.id)), eq(alarmSettings.alarmType, 'overLimit')),
        );
    const settings = await shipmentSettings();
    expect(settings.map((x) => [x.alarmType, x.min, x.max, x.sensorId])).toEqual([
      ['overLimit', 2, 8, s.logger.sensors[0]!.id],
    ]);
    const now = Date.now();
    expect(
      (
        await postReadings(ctx.app, s.logger, [
          { ts: now - 2 * MIN, v: 5 },
          { ts: now - MIN, v: 12 },
        ])
      ).statusCode,
    ).toBe(200);
    await ctx.app.ingest.idle();
    await ctx.app.alarms.idle();
    const raised = await ctx.app.db
      .select()
      .from(alarmRecords)
      .where(eq(alarmRecords.deviceId, Number(s.logger.id)));
    expect(raised.map((a) => [a.alarmType, a.settingId, a.endTime])).toEqual([
      ['overLimit', settings[0]!.id, null],
    ]);

    await s.post('/api/logistics/arriveDelivery', { id });
    const [ended] = await ctx.app.db.select().from(alarmRecords).where(eq(alarmRecords.id, raised[0]!.id));
    expect(ended!.endReason).toBe('shipmentEnded');
    expect(ended!.endTime).not.toBeNull();
    expect(await shipmentSettings()).toEqual([]);
  });

  it('shows the receiving company only the window, lets it receive with its signature password, and prints the note', async () => {
    const receiver = await companyWithCaller('Clinic Co');
    const s = await setUp(receiver.company.id);
    const { id, orderNo } = (
      await s.post<{ id: string; orderNo: string }>('/api/logistics/saveDelivery', s.order())
    ).body.data;
    // Not the receiver's business before it leaves.
    expect(msg(await receiver.post('/api/logistics/deliveryDetail', { id }))).toBe(
      'The delivery order does not exist',
    );
    await s.post('/api/logistics/departDelivery', { id });
    await s.post('/api/logistics/arriveDelivery', { id });
    // The window, fixed by hand: 10:00 to 11:00 of a day; readings before, inside and after it.
    const T0 = Date.UTC(2026, 10, 2, 10, 0, 0);
    await ctx.app.db
      .update(logisticsDeliveries)
      .set({ departedAt: new Date(T0), arrivedAt: new Date(T0 + 60 * MIN) })
      .where(eq(logisticsDeliveries.id, Number(id)));
    const sensorId = s.logger.sensors[0]!.id;
    const stamps: Array<[number, number]> = [
      [-10, 20], // before departure: loading dock, warm
      [0, 5],
      [20, 9],
      [25, 6],
      [60, 4],
      [70, 25], // after arrival: unloaded
    ];
    await ctx.app.db.execute(
      sql`insert into readings (sensor_id, ts, value) values ${sql.join(
        stamps.map(([m, v]) => sql`(${sensorId}, ${new Date(T0 + m * MIN).toISOString()}, ${v})`),
        sql`, `,
      )}`,
    );

    const listed = await receiver.post<Page<DeliveryListItem>>('/api/logistics/pageReceiving', {});
    expect(listed.body.data.list.map((d) => [d.orderNo, d.senderCompany])).toEqual([[orderNo, 'Sender Co']]);
    const seen = (await receiver.post<DeliveryDetail>('/api/logistics/deliveryDetail', { id })).body.data;
    expect(seen.role).toBe('receiver');
    expect(seen.monitors[0]!.sensors[0]!.points).toEqual([
      [T0, 5],
      [T0 + 20 * MIN, 9],
      [T0 + 25 * MIN, 6],
      [T0 + 60 * MIN, 4],
    ]);
    // No live position after arrival.
    expect(seen.monitors[0]).toMatchObject({ lng: null, lat: null, lastSeen: null });
    expect(seen.summary).toMatchObject({ min: 4, max: 9, minutesOutOfRange: 5, excursions: 1, readings: 4 });
    // 0 -> 20 and 25 -> 60 are silences longer than three 5-minute intervals.
    expect(seen.summary.gaps).toEqual([
      { serial: s.logger.serial, channel: 1, start: T0, end: T0 + 20 * MIN },
      { serial: s.logger.serial, channel: 1, start: T0 + 25 * MIN, end: T0 + 60 * MIN },
    ]);

    // The sender cannot receive its own shipment to another company.
    expect(msg(await s.post('/api/logistics/receiveDelivery', { id, accepted: true }))).toBe(
      'The delivery order does not exist',
    );
    // With its audit signature on, the receiving company signs with the signature password.
    await ctx.app.db.update(companies).set({ signCheck: true }).where(eq(companies.id, receiver.company.id));
    expect(
      msg(await receiver.post('/api/logistics/receiveDelivery', { id, accepted: true, signPassword: 'x' })),
    ).toBe('Signature password not set, so the feature cannot be used');
    await receiver.post('/api/user/setSignPassword', { password: 'abc123', confirmPassword: 'abc123' });
    expect(
      msg(
        await receiver.post('/api/logistics/receiveDelivery', { id, accepted: true, signPassword: 'wrong1' }),
      ),
    ).toBe('The signature password is incorrect');
    const received = await receiver.post('/api/logistics/receiveDelivery', {
      id,
      accepted: true,
      remarks: 'Cold boxes intact',
      signPassword: 'abc123',
    });
    expect(received.body.msgCode).toBe(200);
    expect(
      msg(
        await receiver.post('/api/logistics/receiveDelivery', {
          id,
          accepted: false,
          signPassword: 'abc123',
        }),
      ),
    ).toBe('Not possible: the order is received');
    const after = (await s.post<DeliveryDetail>('/api/logistics/deliveryDetail', { id })).body.data;
    expect(after.state).toBe(4);
    expect(after.receipt).toMatchObject({
      accepted: true,
      remarks: 'Cold boxes intact',
      signedBy: 'Company Admin',
      method: 'password',
    });
    // Both companies' logs hold the receipt.
    for (const companyId of [s.company.id, receiver.company.id]) {
      const rows = await ctx.app.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.companyId, companyId), eq(auditLog.action, 'logisticsDelivery.receive')));
      expect(rows).toHaveLength(1);
    }

    const note = await postForFile(ctx.app, receiver.as, '/api/logistics/deliveryNote', {
      id,
      format: 'pdf',
    });
    expect(note.type).toBe('application/pdf');
    const text = await pdfText(note.pdf!);
    for (const words of [
      orderNo,
      'Vaccine',
      'Cold Trucks Ltd',
      'Clinic',
      'Accepted',
      'Company Admin',
      'Electronically signed',
    ])
      expect(text).toContain(words);
    const sheet = await postForFile(ctx.app, s.as, '/api/logistics/deliveryNote', { id, format: 'xlsx' });
    expect(sheet.type).toContain('spreadsheetml');
    const zh = await postForFile(ctx.app, s.as, '/api/logistics/deliveryNote', { id, format: 'pdf' }, 'cn');
    expect(await pdfText(zh.pdf!)).toContain('送货单');

    // A company the order is not addressed to sees nothing.
    const stranger = await companyWithCaller('Stranger Co');
    expect(msg(await stranger.post('/api/logistics/deliveryDetail', { id }))).toBe(
      'The delivery order does not exist',
    );
    expect(
      (await stranger.post<Page<DeliveryListItem>>('/api/logistics/pageReceiving', {})).body.data.total,
    ).toBe(0);
  });

  it('lets a receiver outside the platform receive through a link until it expires', async () => {
    const s = await setUp();
    const { id } = (await s.post<{ id: string }>('/api/logistics/saveDelivery', s.order())).body.data;
    expect(
      msg(
        await s.post('/api/logistics/sendReceiptLink', {
          id,
          channel: 'email',
          recipient: 'clinic@example.com',
        }),
      ),
    ).toBe('Not possible: the order is created');
    await s.post('/api/logistics/departDelivery', { id });
    expect(
      msg(
        await s.post('/api/logistics/sendReceiptLink', {
          id,
          channel: 'sms',
          recipient: 'clinic@example.com',
        }),
      ),
    ).toBe('Enter a valid e-mail address or mobile number for the receiver');
    const sent = await s.post<{ url: string; expireTime: number }>('/api/logistics/sendReceiptLink', {
      id,
      channel: 'email',
      recipient: 'clinic@example.com',
      validDays: 2,
    });
    expect(sent.body.msgCode).toBe(200);
    const token = sent.body.data.url.split('/receipt/')[1]!;
    expect(sent.body.data.expireTime).toBeGreaterThan(Date.now() + 47 * 60 * MIN);
    // Only the hash is stored; the message went to the outbox.
    const [link] = await ctx.app.db
      .select()
      .from(logisticsReceiptLinks)
      .where(eq(logisticsReceiptLinks.deliveryId, Number(id)));
    expect(link!.tokenHash).not.toContain(token);
    const outbox = await ctx.app.db.execute(
      sql`select body from outbox_messages where recipient = 'clinic@example.com'`,
    );
    expect(JSON.stringify(outbox)).toContain(token);

    const open = (url: string, body: object) => call(ctx.app, url, body);
    const page = await open('/api/logistics/linkReceipt', { token });
    expect((page.body.data as DeliveryDetail).role).toBe('link');
    expect(
      msg(
        await open('/api/logistics/linkReceive', {
          token,
          accepted: true,
          signerName: 'Dr Wang',
          signature: 'data:image/png;base64,iVBORw0KGgo=',
        }),
      ),
    ).toBe('Not possible: the order is in transit');
    await s.post('/api/logistics/arriveDelivery', { id });
    const done = await open('/api/logistics/linkReceive', {
      token,
      accepted: false,
      remarks: 'Box warm',
      signerName: 'Dr Wang',
      signature: 'data:image/png;base64,iVBORw0KGgo=',
    });
    expect(done.body.msgCode).toBe(200);
    const detail = (await s.post<DeliveryDetail>('/api/logistics/deliveryDetail', { id })).body.data;
    expect(detail.state).toBe(5);
    expect(detail.receipt).toMatchObject({ accepted: false, signedBy: 'Dr Wang', method: 'drawn' });
    const note = await ctx.app.inject({
      method: 'POST',
      url: '/api/logistics/linkDeliveryNote',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ token, format: 'pdf' }),
    });
    expect(note.headers['content-type']).toBe('application/pdf');
    expect(await pdfText(note.rawPayload)).toContain('Dr Wang');

    // Once expired, the link opens nothing, and an unknown token reads alike.
    await ctx.app.db
      .update(logisticsReceiptLinks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(logisticsReceiptLinks.deliveryId, Number(id)));
    const expired = 'This receipt link is not valid or has expired; ask the sender for a new one';
    expect(msg(await open('/api/logistics/linkReceipt', { token }))).toBe(expired);
    expect(msg(await open('/api/logistics/linkReceipt', { token: `${token.slice(0, -2)}zz` }))).toBe(expired);
    expect(msg(await open('/api/logistics/linkReceipt', { token: 'short' }))).toBe(
      'The receipt link is not valid',
    );
  });

  it('records the signed-in member as the signature when the receiving company asks none', async () => {
    const receiver = await companyWithCaller('Shop Co');
    const s = await setUp(receiver.company.id);
    const { id } = (await s.post<{ id: string }>('/api/logistics/saveDelivery', s.order())).body.data;
    await s.post('/api/logistics/departDelivery', { id });
    expect(msg(await receiver.post('/api/logistics/receiveDelivery', { id, accepted: true }))).toBe(
      'Not possible: the order is in transit',
    );
    await s.post('/api/logistics/arriveDelivery', { id });
    expect(
      (await receiver.post('/api/logistics/receiveDelivery', { id, accepted: false, remarks: 'Warm' })).body
        .msgCode,
    ).toBe(200);
    const detail = (await receiver.post<DeliveryDetail>('/api/logistics/deliveryDetail', { id })).body.data;
    expect(detail.state).toBe(5);
    expect(detail.receipt).toMatchObject({
      accepted: false,
      method: 'account',
      signedBy: 'Company Admin',
      remarks: 'Warm',
    });
  });

  it('refuses every delivery call without the logistics service', async () => {
    const company = await buildCompany(ctx.app.db, { services: [] });
    const token = await login(ctx.app, company.admin.account);
    const res = await call(ctx.app, '/api/logistics/pageDeliveries', {}, { token, companyId: company.id });
    expect(res.body.msgCode).not.toBe(200);
  });
});

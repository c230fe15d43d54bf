import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DeliveryDetail } from '@coldchain/contract';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { buildCompany, buildDevice, login } from '../../test/factories';
import { solidPng } from '../../test/png';
import { departments } from '../org/org.table';
import { logisticsDeliveries } from './deliveries.table';
import { ROUTE_POINTS } from './delivery-route';

const SERVICES = ['service:logistics'];
const MIN = 60_000;
const uploadDir = mkdtempSync(path.join(tmpdir(), 'cc-receipt-photos-'));
afterAll(() => rmSync(uploadDir, { recursive: true, force: true }));

/** A PNG's signature and header length: what the upload's type check reads. */
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
  Buffer.alloc(64, 0x20),
]);

/** Image objects a PDF holds (pdfkit writes object dictionaries uncompressed). */
const imageObjects = (pdf: Buffer) => pdf.toString('latin1').match(/\/Subtype \/Image/g)?.length ?? 0;

describe('delivery detail: the recorded route and the receipt photo', () => {
  const ctx = useTestApp({ uploadDir });

  async function companyWithCaller(name: string) {
    const company = await buildCompany(ctx.app.db, { name, services: SERVICES });
    const token = await login(ctx.app, company.admin.account);
    const post = <T>(url: string, body: unknown) =>
      call<T>(ctx.app, url, body, { token, companyId: company.id });
    return { company, token, post };
  }

  /** A sender's order from its warehouse to the receiving company's clinic, with a GPS logger, departed. */
  async function departedOrder() {
    const receiver = await companyWithCaller('Clinic Co');
    const sender = await companyWithCaller('Sender Co');
    const [root] = await ctx.app.db
      .select({ code: departments.code })
      .from(departments)
      .where(and(eq(departments.companyId, receiver.company.id), isNull(departments.parentId)));
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
    const logger = await buildDevice(ctx.app.db, sender.company.id, { name: 'Truck logger' });
    const saved = await sender.post<{ id: string }>('/api/logistics/saveDelivery', {
      senderAddressId: await address('Warehouse'),
      receiverAddressId: await address('Clinic', root!.code),
      goods: [{ name: 'Vaccine', quantity: '200 vials' }],
      tempMin: 2,
      tempMax: 8,
      deviceIds: [logger.id],
    });
    const id = saved.body.data.id;
    expect((await sender.post('/api/logistics/departDelivery', { id })).body.msgCode).toBe(200);
    const link = await sender.post<{ url: string }>('/api/logistics/sendReceiptLink', {
      id,
      channel: 'email',
      recipient: 'clinic@example.com',
    });
    const token = link.body.data.url.split('/receipt/')[1]!;
    /** The detail as the sender, the receiving company and the receipt link read it. */
    const views = async () => [
      (await sender.post<DeliveryDetail>('/api/logistics/deliveryDetail', { id })).body.data,
      (await receiver.post<DeliveryDetail>('/api/logistics/deliveryDetail', { id })).body.data,
      (await call<DeliveryDetail>(ctx.app, '/api/logistics/linkReceipt', { token })).body.data,
    ];
    const setWindow = (departedAt: number, arrivedAt: number | null) =>
      ctx.app.db
        .update(logisticsDeliveries)
        .set({ departedAt: new Date(departedAt), arrivedAt: arrivedAt === null ? null : new Date(arrivedAt) })
        .where(eq(logisticsDeliveries.id, Number(id)));
    return { sender, receiver, logger, id, views, setWindow };
  }

  function postPositions(
    logger: { serial: string; deviceKey: string },
    points: Array<{ ts: number; lat: number; lng: number }>,
  ) {
    return ctx.app.inject({
      method: 'POST',
      url: '/device/v1/up',
      headers: {
        authorization: `Basic ${Buffer.from(`${logger.serial}:${logger.deviceKey}`).toString('base64')}`,
        'content-type': 'application/json',
      },
      payload: JSON.stringify({ records: points.map((p) => ({ ...p, channels: [{ ch: 1, v: 5 }] })) }),
    });
  }

  it('gives the sender, the receiving company and the link the route within departure..arrival only', async () => {
    const o = await departedOrder();
    const T0 = Math.floor(Date.now() / MIN) * MIN - 120 * MIN;
    const at = (minutes: number, lng: number) => ({
      ts: T0 + minutes * MIN,
      lat: 22.5 + minutes / 1000,
      lng,
    });
    const posted = await postPositions(o.logger, [
      at(-10, 113.9), // loading at the warehouse, before departure
      at(0, 113.93),
      at(20, 114.0),
      at(60, 114.12),
      at(70, 114.13), // after arrival: unloaded at the clinic
      { ts: Date.now() + 2 * MIN, lat: 22.7, lng: 114.2 }, // ahead of now: not yet travelled
    ]);
    expect(posted.statusCode).toBe(200);

    // In transit since T0: the route runs to now, the live position is the latest one sent.
    await o.setWindow(T0, null);
    for (const view of await o.views()) {
      expect(view.monitors[0]!.route, view.role).toEqual([
        at(0, 113.93),
        at(20, 114.0),
        at(60, 114.12),
        at(70, 114.13),
      ]);
      expect(view.monitors[0]).toMatchObject({ lat: 22.7, lng: 114.2 });
    }

    // Arrived at T0 + 60: neither the loading nor the unloading is part of the trip.
    expect((await o.sender.post('/api/logistics/arriveDelivery', { id: o.id })).body.msgCode).toBe(200);
    await o.setWindow(T0, T0 + 60 * MIN);
    const views = await o.views();
    expect(views.map((v) => v.role)).toEqual(['sender', 'receiver', 'link']);
    for (const view of views) {
      expect(view.monitors[0]!.route, view.role).toEqual([at(0, 113.93), at(20, 114.0), at(60, 114.12)]);
      expect(view.monitors[0]).toMatchObject({ lat: null, lng: null });
    }
  });

  it('thins a long track to at most the route limit, in time order, first and last point kept', async () => {
    const o = await departedOrder();
    const T0 = Math.floor(Date.now() / MIN) * MIN - 6 * 60 * MIN;
    // 1,441 positions, one every 10 seconds for four hours.
    await ctx.app.db.execute(
      sql`insert into device_positions (device_id, ts, lat, lng)
          select ${Number(o.logger.id)}, ${new Date(T0).toISOString()}::timestamptz + make_interval(secs => i * 10), 22.5 + i / 10000.0, 114
          from generate_series(0, 1440) as i`,
    );
    await o.setWindow(T0, T0 + 4 * 60 * MIN);
    const [view] = await o.views();
    const route = view!.monitors[0]!.route!;
    expect(route.length).toBeLessThanOrEqual(ROUTE_POINTS);
    expect(route.length).toBeGreaterThan(ROUTE_POINTS / 2);
    expect(route[0]!.ts).toBe(T0);
    expect(route.at(-1)!.ts).toBe(T0 + 4 * 60 * MIN);
    expect(route.every((p, i) => i === 0 || p.ts > route[i - 1]!.ts)).toBe(true);
  });

  it('shows the receipt photo to the sender, the receiving company and the link, served without login', async () => {
    const o = await departedOrder();
    await o.sender.post('/api/logistics/arriveDelivery', { id: o.id });
    const boundary = '----cc-receipt-photo';
    const uploaded = await ctx.app.inject({
      method: 'POST',
      url: '/api/file/upload',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, accessToken: o.receiver.token },
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="goods.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        PNG,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    const photo = (uploaded.json() as { data: { url: string } }).data.url;
    expect(photo).toMatch(/^\/files\/[a-f0-9]{32}\.png$/);
    const received = await o.receiver.post('/api/logistics/receiveDelivery', {
      id: o.id,
      accepted: true,
      remarks: 'Boxes intact',
      photo,
    });
    expect(received.body.msgCode).toBe(200);
    for (const view of await o.views())
      expect(view.receipt, view.role).toMatchObject({ accepted: true, remarks: 'Boxes intact', photo });
    // The page shows it as an <img>, which sends no login: the random name is the key.
    const image = await ctx.app.inject({ method: 'GET', url: photo });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
  });

  /** A multipart form of the receipt link's photo call: the token field and one file. */
  const linkPhoto = (token: string, file: Buffer, name = 'goods.png') => {
    const boundary = '----cc-link-photo';
    return ctx.app.inject({
      method: 'POST',
      url: '/api/logistics/linkPhoto',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, language: 'en' },
      payload: Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="token"\r\n\r\n${token}\r\n`),
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        file,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
  };
  /** A new receipt link of the order, sent to the door; its token. */
  const receiptLinkToken = async (o: Awaited<ReturnType<typeof departedOrder>>) =>
    (
      await o.sender.post<{ url: string }>('/api/logistics/sendReceiptLink', {
        id: o.id,
        channel: 'email',
        recipient: 'door@example.com',
      })
    ).body.data.url.split('/receipt/')[1]!;
  const msgOf = (response: { json(): unknown }) => (response.json() as { msgContent: string }).msgContent;

  it('lets a receiver outside the platform attach a photo through the link, printed on the delivery note with the drawn signature', async () => {
    const o = await departedOrder();
    const token = await receiptLinkToken(o);
    const photoBytes = solidPng(40, 30, [30, 120, 200]);

    // Only while the order waits at the door: in transit, the link stores nothing.
    const early = await linkPhoto(token, photoBytes);
    expect(early.statusCode).toBe(200);
    expect(msgOf(early)).toMatch(/in transit/i);
    await o.sender.post('/api/logistics/arriveDelivery', { id: o.id });
    expect(msgOf(await linkPhoto(`${token.slice(0, -2)}zz`, photoBytes))).toMatch(/expired|invalid/i);
    expect(msgOf(await linkPhoto('', photoBytes))).toMatch(/expired|invalid/i);
    const gif = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(32)]);
    expect(msgOf(await linkPhoto(token, gif, 'goods.gif'))).toBe('The photo must be a JPG or PNG image');

    const uploaded = await linkPhoto(token, photoBytes);
    const photo = (uploaded.json() as { data: { url: string } }).data.url;
    expect(photo).toMatch(/^\/files\/[a-f0-9]{32}\.png$/);
    const signature = `data:image/png;base64,${solidPng(60, 20, [0, 0, 0, 255]).toString('base64')}`;
    const received = await call(ctx.app, '/api/logistics/linkReceive', {
      token,
      accepted: true,
      remarks: 'Two boxes dented',
      signerName: 'Dr. Chen',
      signature,
      photo,
    });
    expect(received.body.msgCode).toBe(200);
    for (const view of await o.views())
      expect(view.receipt, view.role).toMatchObject({ accepted: true, remarks: 'Two boxes dented', photo });

    // Done: the link stores no more files.
    expect(msgOf(await linkPhoto(token, photoBytes))).toMatch(/received/i);

    const note = await ctx.app.inject({
      method: 'POST',
      url: '/api/logistics/linkDeliveryNote',
      headers: { 'content-type': 'application/json' },
      payload: { token, format: 'pdf' },
    });
    expect(note.statusCode).toBe(200);
    expect(note.headers['content-type']).toBe('application/pdf');
    // The photo (RGB: one image) and the drawn signature (RGBA: the picture and its alpha mask).
    expect(imageObjects(note.rawPayload)).toBe(3);
    const asSender = await ctx.app.inject({
      method: 'POST',
      url: '/api/logistics/deliveryNote',
      headers: {
        'content-type': 'application/json',
        accessToken: o.sender.token,
        companyId: String(o.sender.company.id),
      },
      payload: { id: o.id, format: 'pdf' },
    });
    expect(imageObjects(asSender.rawPayload)).toBe(3);
  });

  it('prints a placeholder for a receipt picture it cannot draw, and keeps serving', async () => {
    const o = await departedOrder();
    await o.sender.post('/api/logistics/arriveDelivery', { id: o.id });
    const token = await receiptLinkToken(o);
    // A PNG by its first bytes whose rows are not a zlib stream: pdfkit would fail on it in a
    // callback that no handler catches, so the writer must not hand it over.
    const good = solidPng(8, 8, [0, 0, 0, 255]);
    const broken = Buffer.from(good);
    broken.fill(0x41, 41, broken.length - 12);
    const uploaded = await linkPhoto(token, broken);
    const photo = (uploaded.json() as { data: { url: string } }).data.url;
    const received = await call(ctx.app, '/api/logistics/linkReceive', {
      token,
      accepted: false,
      signerName: 'Dr. Chen',
      signature: `data:image/png;base64,${broken.toString('base64')}`,
      photo,
    });
    expect(received.body.msgCode).toBe(200);
    const note = await ctx.app.inject({
      method: 'POST',
      url: '/api/logistics/linkDeliveryNote',
      headers: { 'content-type': 'application/json' },
      payload: { token, format: 'pdf' },
    });
    expect(note.statusCode).toBe(200);
    expect(imageObjects(note.rawPayload)).toBe(0);
    expect((await call(ctx.app, '/api/logistics/linkReceipt', { token })).body.msgCode).toBe(200);
  });
});

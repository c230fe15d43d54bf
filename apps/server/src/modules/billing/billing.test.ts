import { OrderStatus, type OrderView, type Page, type PriceListView } from '@coldchain/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { translate } from '../../i18n/messages';
import { loadConfig } from '../../lib/config';
import { call, useTestApp } from '../../test/build-app';
import {
  addMember,
  buildCompany,
  buildDepartment,
  buildDevice,
  buildRole,
  buildUser,
  login,
} from '../../test/factories';
import { auditLog } from '../audit/audit.table';
import { devices } from '../devices/devices.table';
import { approveOrder, rejectOrder } from './order-decisions';
import { orders } from './orders.table';
import { parseTierPrices } from './prices';

const DAY = 86_400_000;

describe('device renewal and data recovery orders', () => {
  const ctx = useTestApp({
    prices: {
      renewal: { basic: 1000, standard: 1550, elite: 2000, premium: 3000 },
      recovery: { basic: 2000, standard: 3000, elite: 4000, premium: 5000 },
    },
  });

  async function companyWithDevices(n = 2) {
    const company = await buildCompany(ctx.app.db);
    const list = [];
    for (let i = 0; i < n; i++) list.push(await buildDevice(ctx.app.db, company.id));
    const token = await login(ctx.app, company.admin.account);
    return { company, devices: list, token };
  }

  async function memberWith(companyId: number, tags: string[], departmentId?: number) {
    const user = await buildUser(ctx.app.db);
    const dept = departmentId ?? (await buildDepartment(ctx.app.db, companyId)).id;
    const role = await buildRole(ctx.app.db, companyId, dept, tags);
    await addMember(ctx.app.db, companyId, user.id, false, { departmentId: dept, roleId: role.id });
    return { user, token: await login(ctx.app, user.account), departmentId: dept };
  }

  it('prices a renewal per device by its tier times whole months, pending approval', async () => {
    const { devices: list, token } = await companyWithDevices();
    await ctx.app.db
      .update(devices)
      .set({ version: 'premium' })
      .where(eq(devices.id, Number(list[1]!.id)));
    const res = await call<OrderView>(
      ctx.app,
      '/api/device/monitoringDevicePay',
      { deviceIds: [list[0]!.id, list[1]!.id], months: 3 },
      { token },
    );
    expect(res.body.msgCode).toBe(200);
    const order = res.body.data;
    expect(order.status).toBe(OrderStatus.Pending);
    expect(order.kind).toBe('renewal');
    expect(order.lines.map((l) => [l.version, l.unitPrice, l.amount])).toEqual([
      ['standard', 15.5, 46.5],
      ['premium', 30, 90],
    ]);
    expect(order.amount).toBe(136.5);
    expect(order.currency).toBe('RM');
    expect(order.orderNo).toMatch(/^CC\d{8}\d{6}$/);
    const audits = await ctx.app.db.select().from(auditLog).where(eq(auditLog.targetId, order.id));
    expect(audits.filter((a) => a.targetType === 'order').map((a) => a.action)).toEqual(['order.renewal']);
  });

  it('refuses a renewal without devices, or with months that are not a positive integer', async () => {
    const { devices: list, token } = await companyWithDevices(1);
    const none = await call(
      ctx.app,
      '/api/device/monitoringDevicePay',
      { deviceIds: [], months: 1 },
      { token },
    );
    expect(none.body.msgContent).toBe('Select at least one device, time period or record');
    for (const months of [1.5, 0, -2, 'two']) {
      const bad = await call(
        ctx.app,
        '/api/device/monitoringDevicePay',
        { deviceIds: [list[0]!.id], months },
        { token, language: 'cn' },
      );
      expect(bad.body.msgCode).toBe(500);
      expect(bad.body.msgContent).toBe(translate('rule.renewalMonths', 'cn'));
    }
    expect(await ctx.app.db.select().from(orders)).not.toContainEqual(
      expect.objectContaining({ lines: [expect.objectContaining({ deviceId: Number(list[0]!.id) })] }),
    );
  });

  it('says "Cannot top up without permission" to a member without device:topUp', async () => {
    const { company, devices: list } = await companyWithDevices(1);
    const { token } = await memberWith(company.id, ['device:view', 'device:edit']);
    for (const [url, body] of [
      ['/api/device/monitoringDevicePay', { deviceIds: [list[0]!.id], months: 1 }],
      ['/api/device/monitoringDeviceRecovery', { deviceIds: [list[0]!.id], startTime: 1, endTime: 2 }],
      ['/api/order/pageOrders', {}],
      ['/api/order/priceList', {}],
    ] as const) {
      const res = await call(ctx.app, url, body, { token });
      expect(res.body, url).toEqual({
        msgCode: 500,
        msgContent: 'Cannot top up without permission',
        data: null,
      });
    }
    const cn = await call(ctx.app, '/api/order/priceList', {}, { token, language: 'cn' });
    expect(cn.body.msgContent).toBe('没有充值权限，无法充值');
  });

  it('refuses a device the caller cannot see, and another company’s device, changing nothing', async () => {
    const own = await companyWithDevices(1);
    const other = await companyWithDevices(1);
    const before = (await ctx.app.db.select().from(orders)).length;
    const foreign = await call(
      ctx.app,
      '/api/device/monitoringDevicePay',
      { deviceIds: [own.devices[0]!.id, other.devices[0]!.id], months: 1 },
      { token: own.token },
    );
    expect(foreign.body.msgContent).toBe(translate('DEVICE_NOT_FOUND', 'en'));
    // A department member sees only their department's devices.
    const { token } = await memberWith(own.company.id, ['device:view', 'device:topUp']);
    const hidden = await call(
      ctx.app,
      '/api/device/monitoringDevicePay',
      { deviceIds: [own.devices[0]!.id], months: 1 },
      { token },
    );
    expect(hidden.body.msgContent).toBe(translate('DEVICE_NOT_FOUND', 'en'));
    expect((await ctx.app.db.select().from(orders)).length).toBe(before);
  });

  it('prices data recovery per 30-day month, part months counted whole', async () => {
    const { devices: list, token } = await companyWithDevices(2);
    const end = Date.now() - DAY;
    const cases: [number, number][] = [
      [30 * DAY, 1],
      [30 * DAY + 60_000, 2],
      [DAY, 1],
      [61 * DAY, 3],
    ];
    for (const [length, months] of cases) {
      const res = await call<OrderView>(
        ctx.app,
        '/api/device/monitoringDeviceRecovery',
        { deviceIds: list.map((d) => d.id), startTime: end - length, endTime: end },
        { token },
      );
      expect(res.body.msgCode, res.body.msgContent).toBe(200);
      expect(res.body.data.months).toBe(months);
      // Two standard devices at RM 30 a month each.
      expect(res.body.data.amount).toBe(months * 60);
      expect(res.body.data.startTime).toBe(end - length);
    }
  });

  it('refuses a recovery without a period, with a reversed period, or one in the future', async () => {
    const { devices: list, token } = await companyWithDevices(1);
    const id = list[0]!.id;
    const missing = await call(
      ctx.app,
      '/api/device/monitoringDeviceRecovery',
      { deviceIds: [id] },
      { token },
    );
    expect(missing.body.msgContent).toBe('Select at least one device, time period or record');
    const reversed = await call(
      ctx.app,
      '/api/device/monitoringDeviceRecovery',
      { deviceIds: [id], startTime: 2_000_000, endTime: 1_000_000 },
      { token },
    );
    expect(reversed.body.msgContent).toBe('End time must be after the start time');
    const future = await call(
      ctx.app,
      '/api/device/monitoringDeviceRecovery',
      { deviceIds: [id], startTime: Date.now() - DAY, endTime: Date.now() + 10 * DAY },
      { token, language: 'cn' },
    );
    expect(future.body.msgContent).toBe('数据恢复时间段必须是过去的时间');
  });

  it('approval extends expiry from the later of now and the current expiry; rejection does not', async () => {
    const { devices: list, token } = await companyWithDevices(2);
    const [lapsed, running] = list.map((d) => Number(d.id)) as [number, number];
    const now = new Date('2030-03-15T00:00:00Z');
    await ctx.app.db
      .update(devices)
      .set({ expireTime: new Date('2030-01-01T00:00:00Z') })
      .where(eq(devices.id, lapsed));
    await ctx.app.db
      .update(devices)
      .set({ expireTime: new Date('2030-06-10T00:00:00Z') })
      .where(eq(devices.id, running));
    const placed = await call<OrderView>(
      ctx.app,
      '/api/device/monitoringDevicePay',
      { deviceIds: [lapsed, running].map(String), months: 2 },
      { token },
    );
    const approved = await approveOrder(ctx.app.db, Number(placed.body.data.id), now);
    expect(approved.status).toBe(OrderStatus.Approved);
    const expiry = async (id: number) =>
      (await ctx.app.db.select().from(devices).where(eq(devices.id, id)))[0]!.expireTime.toISOString();
    expect(await expiry(lapsed)).toBe('2030-05-15T00:00:00.000Z');
    expect(await expiry(running)).toBe('2030-08-10T00:00:00.000Z');
    // Decided orders cannot be decided again or cancelled.
    await expect(approveOrder(ctx.app.db, Number(placed.body.data.id))).rejects.toThrow(/not pending/);
    const cancel = await call(ctx.app, '/api/order/cancelOrder', { id: placed.body.data.id }, { token });
    expect(cancel.body.msgContent).toBe(translate('ORDER_NOT_PENDING', 'en'));

    const second = await call<OrderView>(
      ctx.app,
      '/api/device/monitoringDevicePay',
      { deviceIds: [String(lapsed)], months: 12 },
      { token },
    );
    expect((await rejectOrder(ctx.app.db, Number(second.body.data.id))).status).toBe(OrderStatus.Rejected);
    expect(await expiry(lapsed)).toBe('2030-05-15T00:00:00.000Z');
  });

  it('lists orders with status and creator, and cancels a pending one (own company only)', async () => {
    const { company, devices: list, token } = await companyWithDevices(1);
    const placed = await call<OrderView>(
      ctx.app,
      '/api/device/monitoringDevicePay',
      { deviceIds: [list[0]!.id], months: 1 },
      { token },
    );
    const other = await companyWithDevices(1);
    const foreign = await call(
      ctx.app,
      '/api/order/cancelOrder',
      { id: placed.body.data.id },
      { token: other.token },
    );
    expect(foreign.body.msgContent).toBe(translate('ORDER_NOT_FOUND', 'en'));

    const cancelled = await call<OrderView>(
      ctx.app,
      '/api/order/cancelOrder',
      { id: placed.body.data.id },
      { token },
    );
    expect(cancelled.body.data.status).toBe(OrderStatus.Cancelled);
    const page = await call<Page<OrderView>>(
      ctx.app,
      '/api/order/pageOrders',
      { pageNum: 1, pageSize: 10 },
      { token },
    );
    expect(page.body.data.total).toBe(1);
    expect(page.body.data.list[0]).toMatchObject({
      id: placed.body.data.id,
      status: OrderStatus.Cancelled,
      createdByName: 'Company Admin',
      paymentMethod: 'approval',
    });
    const pending = await call<Page<OrderView>>(ctx.app, '/api/order/pageOrders', { status: 1 }, { token });
    expect(pending.body.data.total).toBe(0);

    // A department member sees only the orders they placed.
    const member = await memberWith(company.id, ['device:view', 'device:topUp']);
    const mine = await call<Page<OrderView>>(ctx.app, '/api/order/pageOrders', {}, { token: member.token });
    expect(mine.body.data.total).toBe(0);
  });

  it('serves the price list in RM per tier and per 30-day recovery month', async () => {
    const { token } = await companyWithDevices(0);
    const res = await call<PriceListView>(ctx.app, '/api/order/priceList', {}, { token });
    expect(res.body.data).toEqual({
      currency: 'RM',
      renewal: { basic: 10, standard: 15.5, elite: 20, premium: 30 },
      recovery: { basic: 20, standard: 30, elite: 40, premium: 50 },
      recoveryMonthDays: 30,
    });
  });

  it('reads price configuration and names what is wrong', () => {
    expect(parseTierPrices('basic:10,standard:15.5,elite:20,premium:30.25')).toEqual({
      basic: 1000,
      standard: 1550,
      elite: 2000,
      premium: 3025,
    });
    expect(parseTierPrices('basic:10,standard:15')).toBe('no price for elite, premium');
    expect(parseTierPrices('gold:10')).toMatch(/unknown tier "gold"/);
    expect(parseTierPrices('basic:ten')).toMatch(/not tier:amount/);
    // A bad value stops the server with a line naming the variable.
    expect(() => loadConfig({ PRICE_RENEWAL_RM: 'basic:10' })).toThrow(
      /PRICE_RENEWAL_RM: no price for standard, elite, premium/,
    );
    expect(loadConfig({}).prices.recovery.premium).toBe(5000);
    expect(loadConfig({ PARAMETER_TIMEOUT_MS: '5000' }).parameterTimeoutMs).toBe(5000);
  });
});

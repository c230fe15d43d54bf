import type { AddressView, Page } from '@coldchain/contract';
import { and, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { translate } from '../../i18n/messages';
import { call, useTestApp } from '../../test/build-app';
import { addMember, buildCompany, buildDepartment, buildRole, buildUser, login } from '../../test/factories';
import { auditLog } from '../audit/audit.table';
import { departments } from '../org/org.table';
import { countAddressUsageWith } from './address-usage';

const SERVICES = ['service:logistics'];
const WAREHOUSE = {
  name: 'North warehouse',
  contact: 'Li Wei',
  phone: '13800138000',
  address: '8 Cold Store Road',
  region: 'Guangdong/Shenzhen',
  lng: 114.05,
  lat: 22.54,
  remarks: 'Dock 3',
};

describe('logistics addresses', () => {
  const ctx = useTestApp();

  async function setUp(services = SERVICES) {
    const company = await buildCompany(ctx.app.db, { services });
    const admin = { token: await login(ctx.app, company.admin.account), companyId: company.id };
    const post = <T>(url: string, body: unknown, language: 'en' | 'cn' = 'en') =>
      call<T>(ctx.app, url, body, { ...admin, language });
    return { company, admin, post };
  }

  async function rootCode(companyId: number) {
    const [root] = await ctx.app.db
      .select({ code: departments.code })
      .from(departments)
      .where(and(eq(departments.companyId, companyId), isNull(departments.parentId)));
    return root!.code;
  }

  it('adds, lists, filters, edits and deletes an address, each change in the operation log', async () => {
    const { company, post } = await setUp();
    const added = await post<{ id: string }>('/api/logistics/saveAddress', WAREHOUSE);
    expect(added.body.msgCode).toBe(200);
    const clinic = { name: 'Clinic', contact: 'Dr Wang', phone: '+86 139-0000-0000', address: '1 Health St' };
    expect((await post('/api/logistics/saveAddress', { ...clinic, region: 'Beijing' })).body.msgCode).toBe(
      200,
    );

    const page = (body: object) =>
      post<Page<AddressView>>('/api/logistics/pageAddresses', { pageNum: 1, pageSize: 20, ...body });
    const all = await page({});
    expect(all.body.data.total).toBe(2);
    expect(all.body.data.list.map((a) => a.name)).toEqual(['Clinic', 'North warehouse']);
    expect(all.body.data.list[1]).toMatchObject({
      ...WAREHOUSE,
      id: added.body.data.id,
      receiverCompany: null,
    });
    // The keyword matches name, contact, phone and address; the region from its start.
    for (const keyword of ['north', 'li wei', '138001', 'cold store'])
      expect((await page({ keyword })).body.data.list.map((a) => a.name)).toEqual(['North warehouse']);
    expect((await page({ keyword: '%' })).body.data.total).toBe(0);
    expect((await page({ region: 'Guangdong' })).body.data.list.map((a) => a.name)).toEqual([
      'North warehouse',
    ]);
    expect((await page({ region: 'Shenzhen' })).body.data.total).toBe(0);

    const edited = await post('/api/logistics/saveAddress', {
      ...WAREHOUSE,
      id: added.body.data.id,
      name: 'South warehouse',
      lng: null,
      lat: null,
    });
    expect(edited.body.msgCode).toBe(200);
    const detail = await post<AddressView>('/api/logistics/addressDetail', { id: added.body.data.id });
    expect(detail.body.data).toMatchObject({
      name: 'South warehouse',
      lng: null,
      lat: null,
      contact: 'Li Wei',
    });

    expect((await post('/api/logistics/deleteAddress', { id: added.body.data.id })).body.msgCode).toBe(200);
    expect((await page({})).body.data.list.map((a) => a.name)).toEqual(['Clinic']);
    const gone = await post('/api/logistics/addressDetail', { id: added.body.data.id });
    expect(gone.body.msgContent).toBe(translate('LOGISTICS_ADDRESS_NOT_FOUND', 'en'));

    const log = await ctx.app.db
      .select({
        action: auditLog.action,
        targetId: auditLog.targetId,
        before: auditLog.before,
        after: auditLog.after,
      })
      .from(auditLog)
      .where(and(eq(auditLog.companyId, company.id), eq(auditLog.targetId, added.body.data.id)))
      .orderBy(auditLog.seq);
    expect(log.map((e) => e.action)).toEqual([
      'logisticsAddress.add',
      'logisticsAddress.edit',
      'logisticsAddress.delete',
    ]);
    expect(log[1]).toMatchObject({ before: { name: 'North warehouse' }, after: { name: 'South warehouse' } });
  });

  it("never shows, edits or deletes another company's address", async () => {
    const a = await setUp();
    const b = await setUp();
    const theirs = await b.post<{ id: string }>('/api/logistics/saveAddress', {
      ...WAREHOUSE,
      name: 'B secret',
    });
    const id = theirs.body.data.id;
    const notFound = translate('LOGISTICS_ADDRESS_NOT_FOUND', 'en');
    expect((await a.post('/api/logistics/addressDetail', { id })).body.msgContent).toBe(notFound);
    expect((await a.post('/api/logistics/saveAddress', { ...WAREHOUSE, id })).body.msgContent).toBe(notFound);
    expect((await a.post('/api/logistics/deleteAddress', { id })).body.msgContent).toBe(notFound);
    const list = await a.post<Page<AddressView>>('/api/logistics/pageAddresses', { keyword: 'secret' });
    expect(list.body.data).toMatchObject({ total: 0, list: [] });
    const still = await b.post<AddressView>('/api/logistics/addressDetail', { id });
    expect(still.body.data.name).toBe('B secret');
    // A's company id in the header with B's token: refused before anything is read.
    const crossed = await call(
      ctx.app,
      '/api/logistics/pageAddresses',
      {},
      { token: b.admin.token, companyId: a.company.id },
    );
    expect(crossed.body.msgContent).toBe(translate('NO_PERMISSION', 'en'));
  });

  it('links a receiving company by its company code only, showing its name once linked', async () => {
    const sender = await setUp();
    const receiver = await buildCompany(ctx.app.db, { name: 'Receiving Clinic' });
    const code = await rootCode(receiver.id);
    const saved = await sender.post<{ id: string }>('/api/logistics/saveAddress', {
      ...WAREHOUSE,
      receiverCompanyCode: code,
    });
    const detail = await sender.post<AddressView>('/api/logistics/addressDetail', { id: saved.body.data.id });
    expect(detail.body.data.receiverCompany).toEqual({ code, name: 'Receiving Clinic' });

    // A sub-department's code and an unknown code read alike: neither says whose they are.
    const sub = await buildDepartment(ctx.app.db, receiver.id, { name: 'Ward' });
    const unknown = translate('LOGISTICS_RECEIVER_UNKNOWN', 'en');
    for (const receiverCompanyCode of [sub.code, '000000000001']) {
      const refused = await sender.post('/api/logistics/saveAddress', { ...WAREHOUSE, receiverCompanyCode });
      expect(refused.body.msgContent).toBe(unknown);
      expect(JSON.stringify(refused.body)).not.toContain('Receiving Clinic');
    }
    // Editing without the field keeps the link; an empty code removes it.
    await sender.post('/api/logistics/saveAddress', {
      ...WAREHOUSE,
      id: saved.body.data.id,
      name: 'Renamed',
    });
    const kept = await sender.post<AddressView>('/api/logistics/addressDetail', { id: saved.body.data.id });
    expect(kept.body.data.receiverCompany?.name).toBe('Receiving Clinic');
    await sender.post('/api/logistics/saveAddress', {
      ...WAREHOUSE,
      id: saved.body.data.id,
      receiverCompanyCode: '',
    });
    const unlinked = await sender.post<AddressView>('/api/logistics/addressDetail', {
      id: saved.body.data.id,
    });
    expect(unlinked.body.data.receiverCompany).toBeNull();
  });

  it('names the bad field in English and Chinese', async () => {
    const { post } = await setUp();
    const cases: [object, string, string][] = [
      [{ phone: '12ab' }, 'Contact phone: enter a correct mobile number', '联系电话：请输入正确的手机号'],
      [{ name: '' }, 'Address name', '地址名称'],
      [{ contact: '' }, 'Contact', '联系人'],
      [{ address: '' }, 'Detailed address', '详细地址'],
      [
        { lng: 181, lat: 10 },
        'Longitude must be a number from -180 to 180',
        '经度须为 -180 到 180 之间的数字',
      ],
      [{ lng: 100, lat: -91 }, 'Latitude must be a number from -90 to 90', '纬度须为 -90 到 90 之间的数字'],
      [
        { lng: 100, lat: undefined },
        'Enter both longitude and latitude, or neither',
        '经度和纬度须同时填写或同时留空',
      ],
      [
        { receiverCompanyCode: '12' },
        'Receiving company code must be the 12-digit',
        '收货企业代码须为 12 位企业代码',
      ],
    ];
    for (const [change, en, cn] of cases) {
      const body = { ...WAREHOUSE, ...change };
      const inEnglish = await post('/api/logistics/saveAddress', body, 'en');
      expect(inEnglish.status).toBeLessThan(500);
      expect(inEnglish.body.msgContent).toContain(en);
      expect((await post('/api/logistics/saveAddress', body, 'cn')).body.msgContent).toContain(cn);
    }
    const list = await post<Page<AddressView>>('/api/logistics/pageAddresses', {});
    expect(list.body.data.total).toBe(0);
  });

  it('refuses every call when the supplier has not enabled the logistics service', async () => {
    const { post } = await setUp([]);
    // Every service that is off answers the spec's words (modules/companies/service-gate.ts).
    const off = translate('NO_PERMISSION', 'en');
    expect((await post('/api/logistics/saveAddress', WAREHOUSE)).body.msgContent).toBe(off);
    expect((await post('/api/logistics/pageAddresses', {})).body.msgContent).toBe(off);
    expect((await post('/api/logistics/addressDetail', { id: '1' })).body.msgContent).toBe(off);
    expect((await post('/api/logistics/deleteAddress', { id: '1' })).body.msgContent).toBe(off);
  });

  it('shares addresses company-wide: a member of any department with the tags reads and edits them', async () => {
    const { company, post } = await setUp();
    const saved = await post<{ id: string }>('/api/logistics/saveAddress', WAREHOUSE);
    const ward = await buildDepartment(ctx.app.db, company.id, { name: 'Ward' });
    const enter = async (tags: string[]) => {
      const role = await buildRole(ctx.app.db, company.id, ward.id, tags);
      const user = await buildUser(ctx.app.db);
      await addMember(ctx.app.db, company.id, user.id, false, { departmentId: ward.id, roleId: role.id });
      const token = await login(ctx.app, user.account);
      return <T>(url: string, body: unknown) => call<T>(ctx.app, url, body, { token, companyId: company.id });
    };
    const reader = await enter(['logistics:view']);
    const list = await reader<Page<AddressView>>('/api/logistics/pageAddresses', {});
    expect(list.body.data.list.map((a) => a.name)).toEqual(['North warehouse']);
    const noPermission = translate('NO_PERMISSION', 'en');
    expect((await reader('/api/logistics/saveAddress', WAREHOUSE)).body.msgContent).toBe(noPermission);
    expect((await reader('/api/logistics/deleteAddress', { id: saved.body.data.id })).body.msgContent).toBe(
      noPermission,
    );
    const editor = await enter(['logistics:view', 'logistics:edit']);
    const edited = await editor('/api/logistics/saveAddress', {
      ...WAREHOUSE,
      id: saved.body.data.id,
      name: 'Ward dock',
    });
    expect(edited.body.msgCode).toBe(200);
  });

  it('refuses to delete an address a delivery order uses, with the count', async () => {
    const { post } = await setUp();
    const saved = await post<{ id: string }>('/api/logistics/saveAddress', WAREHOUSE);
    const usedId = Number(saved.body.data.id);
    // Stands in for the deliveries table, which registers its count the same way.
    countAddressUsageWith(async (_db, _companyId, addressId) => (addressId === usedId ? 2 : 0));
    const refused = await post('/api/logistics/deleteAddress', { id: saved.body.data.id }, 'cn');
    expect(refused.body.msgContent).toBe('该地址已被 2 个运单使用，无法删除');
    const still = await post<AddressView>('/api/logistics/addressDetail', { id: saved.body.data.id });
    expect(still.body.data.name).toBe('North warehouse');
  });
});

import {
  AuthTags,
  type MenuEntry,
  ServiceAuthTags,
  type UserCompany,
  type UserPowers,
} from '@coldchain/contract';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { addMember, buildCompany, buildRole, buildUser, login } from '../../test/factories';
import { rootDepartmentId } from '../groups/groups.service';

/** Every route name of spec section 2 that is a page of the permission-driven routes. */
const SPEC_ROUTE_NAMES =
  `audit operationLog loginLog addedServices serviceList interfaceDock dockMonitor platformList OpenApi
  OpenDevice customizedPushDock customizedPushDevice customizedPushUrl user organization departmentDetail
  orgRoleManagement orgApplicationForInvoice addSector personalCenter myDepartment roleManagement
  sectorPersonnelManagement personnelManagement applicationForInvoice deviceManagement monitoringDevice
  monitoringDeviceDetail monitoringDevicePay monitoringDeviceRecovery openInterface deviceAlarmDetail equipment
  equipmentType equipmentDetail camera cameraDetail cameraAttr platformAccount alarm alarmInfo alarmDetail
  alarmSetting monitoring mapMode groupingMode operationReport taskManage patrolInfo dataCenter dataBackup`.split(
    /\s+/,
  );

function flatten(entries: MenuEntry[]): MenuEntry[] {
  return entries.flatMap((e) => [e, ...flatten(e.children)]);
}

describe('companies, switching and powers', () => {
  const ctx = useTestApp();

  it('lists the caller’s companies with the current one marked', async () => {
    const a = await buildCompany(ctx.app.db, { name: 'Alpha Pharma' });
    const b = await buildCompany(ctx.app.db, { name: 'Beta Foods' });
    await addMember(ctx.app.db, b.id, a.admin.id);
    const token = await login(ctx.app, a.admin.account);
    const { body } = await call<UserCompany[]>(ctx.app, '/api/index/getUserCompanys', {}, { token });
    expect(body.data.map((c) => c.name)).toEqual(['Alpha Pharma', 'Beta Foods']);
    expect(body.data.find((c) => c.current)?.name).toBe('Alpha Pharma');
    expect(body.data.map((c) => c.isAdmin)).toEqual([true, false]);
  });

  it('switches company, and the last used company is restored at the next login', async () => {
    const a = await buildCompany(ctx.app.db);
    const b = await buildCompany(ctx.app.db, { name: 'Second' });
    await addMember(ctx.app.db, b.id, a.admin.id);
    const token = await login(ctx.app, a.admin.account);
    const switched = await call(
      ctx.app,
      '/api/index/switchUserCompany',
      { id: String(b.id) },
      { token, language: 'cn' },
    );
    expect(switched.body).toEqual({ msgCode: 200, msgContent: '企业已切换', data: null });
    const again = await login(ctx.app, a.admin.account);
    const info = await call<{ lastCompanyId: string }>(ctx.app, '/api/user/userInfo', {}, { token: again });
    expect(info.body.data.lastCompanyId).toBe(String(b.id));
  });

  it('refuses a foreign company in switchUserCompany and in the companyId header', async () => {
    const mine = await buildCompany(ctx.app.db);
    const foreign = await buildCompany(ctx.app.db, { name: 'Foreign' });
    const token = await login(ctx.app, mine.admin.account);
    const sw = await call(ctx.app, '/api/index/switchUserCompany', { id: String(foreign.id) }, { token });
    expect(sw.body).toEqual({
      msgCode: 500,
      msgContent: 'No permission for this service or operation',
      data: null,
    });
    for (const url of [
      '/api/index/getUserPowers',
      '/api/index/getUserCompanys',
      '/api/user/userInfo',
      '/api/user/newUserNotice',
    ]) {
      const { body } = await call(ctx.app, url, {}, { token, companyId: foreign.id });
      expect(body, url).toEqual({
        msgCode: 500,
        msgContent: 'No permission for this service or operation',
        data: null,
      });
    }
    const garbage = await call(ctx.app, '/api/user/userInfo', {}, { token, companyId: 'abc' });
    expect(garbage.body.msgCode).toBe(500);
  });

  it('gives a company administrator the full menu tree, every tag and the company services', async () => {
    const company = await buildCompany(ctx.app.db, { services: ['service:camera', 'service:openApi'] });
    const token = await login(ctx.app, company.admin.account);
    const { body } = await call<UserPowers>(
      ctx.app,
      '/api/index/getUserPowers',
      {},
      { token, companyId: company.id },
    );
    expect(body.data.authTags).toEqual([...AuthTags].sort());
    expect(body.data.authTags).toContain('data:view');
    expect(body.data.serviceAuthTags).toEqual(['service:camera', 'service:openApi']);
    const names = flatten(body.data.menus).map((m) => m.name);
    for (const name of SPEC_ROUTE_NAMES.filter(
      (n) =>
        ![
          'equipment',
          'equipmentType',
          'equipmentDetail',
          'customizedPushDock',
          'customizedPushDevice',
          'customizedPushUrl',
          'operationReport',
          'dataBackup',
          'platformList',
          'dockMonitor',
        ].includes(n),
    )) {
      expect(names, name).toContain(name);
    }
    // Services the supplier has not enabled stay out of the menu.
    expect(names).not.toContain('equipment');
    expect(names).not.toContain('customizedPushDevice');
  });

  it('returns every spec route when all services are on, with the fields the console needs', async () => {
    const company = await buildCompany(ctx.app.db, {
      services: [...ServiceAuthTags],
    });
    const token = await login(ctx.app, company.admin.account);
    const { body } = await call<UserPowers>(
      ctx.app,
      '/api/index/getUserPowers',
      {},
      { token, companyId: company.id },
    );
    const all = flatten(body.data.menus);
    expect(all.map((m) => m.name)).toEqual(expect.arrayContaining(SPEC_ROUTE_NAMES));
    const device = all.find((m) => m.name === 'deviceManagement')!;
    expect(device).toMatchObject({
      type: 4,
      pid: '0',
      icon: 'HddOutlined',
      redirect: '/deviceManagement/monitoringDevice',
    });
    const detail = all.find((m) => m.name === 'monitoringDeviceDetail')!;
    expect(detail).toMatchObject({
      type: 2,
      pid: device.id,
      title: 'menu.monitoringDeviceDetail',
      activeMenu: '/deviceManagement/monitoringDevice',
    });
    expect(all.find((m) => m.name === 'customizedPushUrl')?.activeMenu).toBe(
      '/customizedPushDock/customizedPushDevice',
    );
    for (const entry of all)
      expect(Object.keys(entry).sort()).toEqual([
        'activeMenu',
        'children',
        'icon',
        'id',
        'name',
        'pid',
        'redirect',
        'title',
        'type',
        'url',
      ]);
  });

  it('answers each company’s powers for the header’s company, and anew once a role’s tags change', async () => {
    const ward = await buildCompany(ctx.app.db);
    const lab = await buildCompany(ctx.app.db);
    const member = await buildUser(ctx.app.db);
    const wardRoot = (await rootDepartmentId(ctx.app.db, ward.id))!;
    const labRoot = (await rootDepartmentId(ctx.app.db, lab.id))!;
    const viewer = await buildRole(ctx.app.db, ward.id, wardRoot, ['device:view']);
    const auditor = await buildRole(ctx.app.db, lab.id, labRoot, ['audit:view']);
    await addMember(ctx.app.db, ward.id, member.id, false, { roleId: viewer.id });
    await addMember(ctx.app.db, lab.id, member.id, false, { roleId: auditor.id });
    const token = await login(ctx.app, member.account);
    const tagsIn = async (companyId: number) =>
      (await call<UserPowers>(ctx.app, '/api/index/getUserPowers', {}, { token, companyId })).body.data
        .authTags;
    // Asked twice each, in turn: the answers kept are each company's own.
    for (let i = 0; i < 2; i++) {
      expect(await tagsIn(ward.id)).toEqual(['device:view', 'home:view']);
      expect(await tagsIn(lab.id)).toEqual(['audit:view', 'home:view']);
    }
    const admin = await login(ctx.app, ward.admin.account);
    const edited = await call(
      ctx.app,
      '/api/role/editRole',
      { id: String(viewer.id), name: 'Viewer', tags: ['device:view', 'alarm:view'] },
      { token: admin },
    );
    expect(edited.body.msgContent).toBe('Role saved');
    expect(await tagsIn(ward.id)).toEqual(['alarm:view', 'device:view', 'home:view']);
    expect(await tagsIn(lab.id)).toEqual(['audit:view', 'home:view']);
  });

  it('gives a member without a role only the pages every member may see', async () => {
    const company = await buildCompany(ctx.app.db);
    const member = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, company.id, member.id);
    const token = await login(ctx.app, member.account);
    const { body } = await call<UserPowers>(ctx.app, '/api/index/getUserPowers', {}, { token });
    expect(body.data.authTags).toEqual(['home:view']);
    const names = flatten(body.data.menus).map((m) => m.name);
    expect(names).toContain('home');
    expect(names).toContain('personalCenter');
    expect(names).not.toContain('monitoringDevice');
    expect(names).not.toContain('loginLog');
    const ticket = await call(ctx.app, '/api/datav/getEncryptionUser', {}, { token });
    expect(ticket.body.msgContent).toBe('No permission for this service or operation');
  });

  it('a user without a company gets home and personal pages, and a clear message on company calls', async () => {
    const loner = await buildUser(ctx.app.db);
    const token = await login(ctx.app, loner.account);
    const powers = await call<UserPowers>(ctx.app, '/api/index/getUserPowers', {}, { token });
    expect(powers.body.data.authTags).toEqual([]);
    expect(flatten(powers.body.data.menus).map((m) => m.name)).toContain('home');
    const notices = await call(ctx.app, '/api/user/newUserNotice', {}, { token });
    expect(notices.body).toEqual({
      msgCode: 500,
      msgContent: 'Please create or join a company first',
      data: null,
    });
  });
});

import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { buildCompany, buildDepartment, login } from '../../test/factories';
import { equipmentCountsByUseState } from './equipment-overview';

describe('equipment exports and home counts', () => {
  const ctx = useTestApp();

  async function setUp() {
    const company = await buildCompany(ctx.app.db);
    const token = await login(ctx.app, company.admin.account);
    const post = <T>(url: string, body: unknown) => call<T>(ctx.app, url, body, { token });
    const type = await post<{ id: string }>('/api/equipmentType/saveType', {
      name: 'Cold room',
      code: '9',
      attributes: [],
    });
    const save = (body: Record<string, unknown>) =>
      post<{ id: string }>('/api/equipment/saveEquipment', { typeId: type.body.data.id, ...body });
    return { company, token, post, save };
  }

  const exportOf = (token: string, url: string, body: unknown, language = 'en') =>
    ctx.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json', platform: '1', accessToken: token, language },
      payload: JSON.stringify(body),
    });

  it('exports the filtered list and the timeline as csv and xlsx through the shared writer', async () => {
    const { token, save, post } = await setUp();
    const room = await save({ serialSuffix: '0001', name: '=SUM(A1)', region: 'Penang', useState: 4 });
    await save({ serialSuffix: '0002', name: 'Second room' });
    const csv = await exportOf(token, '/api/equipment/exportEquipment', { format: 'csv', useState: 4 });
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toMatch(/equipment-\d{8}\.csv/);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toMatch(/^Serial number,Name,Equipment type,Department,Group,Use state,Region/);
    expect(lines).toHaveLength(2);
    // The user's text that would run as a formula is written as text.
    expect(lines[1]).toMatch(/^90001,'=SUM\(A1\),Cold room,.*,Standby,Penang,/);

    await post('/api/equipment/addRecord', {
      equipmentId: room.body.data.id,
      kind: 'repair',
      unit: 'CoolFix',
      person: 'Tan',
      faultTime: Date.UTC(2025, 0, 2, 3, 0),
      cause: 'Door seal',
      repaired: true,
      repairTime: Date.UTC(2025, 0, 2, 9, 30),
    });
    const records = await exportOf(
      token,
      '/api/equipment/exportRecords',
      { format: 'csv', equipmentId: room.body.data.id, timeZone: 'Asia/Kuala_Lumpur' },
      'cn',
    );
    const recordLines = records.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(recordLines[0]).toBe('时间,记录类型,详情,记录人,创建时间');
    expect(recordLines[1]).toContain(
      '2025-01-02 11:00:00,维修,单位: CoolFix; 人员: Tan; 故障原因: Door seal; 是否修复: 是; 维修时间: 2025-01-02 17:30:00',
    );

    const xlsx = await exportOf(token, '/api/equipment/exportRecords', {
      format: 'xlsx',
      equipmentId: room.body.data.id,
    });
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
    const other = await buildCompany(ctx.app.db);
    const stranger = await exportOf(
      await login(ctx.app, other.admin.account),
      '/api/equipment/exportRecords',
      {
        format: 'csv',
        equipmentId: room.body.data.id,
      },
    );
    expect(JSON.parse(stranger.body).msgContent).toBe('The equipment does not exist');
  });

  it('counts equipment by use state within the caller’s departments', async () => {
    const { company, save, post } = await setUp();
    const ward = await buildDepartment(ctx.app.db, company.id, { name: 'Ward' });
    await save({ serialSuffix: '0001', name: 'A', departmentId: String(ward.id) });
    await save({ serialSuffix: '0002', name: 'B', departmentId: String(ward.id), useState: 2 });
    const scrapped = await save({ serialSuffix: '0003', name: 'C' });
    await post('/api/equipment/addRecord', {
      equipmentId: scrapped.body.data.id,
      kind: 'scrap',
      scrapType: 'scrap',
      time: Date.now(),
    });
    await save({ serialSuffix: '0004', name: 'D', useState: 4 });
    // Only the company and the department scope matter here (equipmentInScope).
    type Scope = Parameters<typeof equipmentCountsByUseState>[1];
    const admin = { companyId: company.id, scopePath: null } as Scope;
    expect(await equipmentCountsByUseState(ctx.app.db, admin)).toEqual({
      total: 4,
      inUse: 1,
      underService: 1,
      disposed: 1,
      standby: 1,
    });
    const scoped = { companyId: company.id, scopePath: ward.path } as Scope;
    expect(await equipmentCountsByUseState(ctx.app.db, scoped)).toEqual({
      total: 2,
      inUse: 1,
      underService: 1,
      disposed: 0,
      standby: 0,
    });
  });
});

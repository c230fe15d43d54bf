import type { DeviceView, Page } from '@coldchain/contract';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from './build-app';
import {
  addMember,
  buildCompany,
  buildDepartment,
  buildDevice,
  buildRole,
  buildUser,
  login,
} from './factories';
import { statementsOf } from './statement-log';

/**
 * The page-load reads answered again without the database while nothing changed
 * (lib/answer-cache.ts): what a caller sees stays what the database holds.
 */
describe('answers reused between changes', () => {
  const ctx = useTestApp();

  it('answers a repeated question without a statement, and a caller sees their own change at once', async () => {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id, { name: 'Vaccine fridge' });
    const token = await login(ctx.app, company.admin.account);
    const page = () => call<Page<DeviceView>>(ctx.app, '/api/device/pageDevices', { pageNum: 1 }, { token });
    expect((await page()).body.data.list.map((d) => d.name)).toEqual(['Vaccine fridge']);
    const again = await statementsOf(ctx.app.db, page);
    expect(again.result.body.data.list.map((d) => d.name)).toEqual(['Vaccine fridge']);
    // Nothing but, at most, the read of who is calling: the caller cache keeps no load begun in
    // the two seconds after a change to it (the login), on its own terms (auth-cache.ts).
    expect(again.statements.filter((text) => !text.includes("'sessionId', s.id"))).toEqual([]);

    const renamed = await call(
      ctx.app,
      '/api/device/editDevice',
      {
        id: device.id,
        name: 'Insulin fridge',
        recordInterval: 60,
        uploadInterval: 60,
        alarmVerifyInterval: 60,
        offlineJudgement: 3,
      },
      { token },
    );
    expect(renamed.body.msgCode).toBe(200);
    expect((await page()).body.data.list.map((d) => d.name)).toEqual(['Insulin fridge']);
  });

  it('shows a reading the moment ingest has stored it', async () => {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id);
    const token = await login(ctx.app, company.admin.account);
    const detail = () => call<DeviceView>(ctx.app, '/api/device/deviceDetail', { id: device.id }, { token });
    expect((await detail()).body.data.sensors[0]!.value).toBeNull();
    const known = (await ctx.app.deviceDirectory.find(device.serial))!;
    await ctx.app.ingest.ingest(known, [{ ts: Date.now(), channels: [{ ch: 1, v: 4.5 }], mode: 'normal' }]);
    expect((await detail()).body.data.sensors[0]!.value).toBe(4.5);
  });

  it('gives callers with other rights or scope their own answers to the same question', async () => {
    const company = await buildCompany(ctx.app.db);
    const pharmacy = await buildDepartment(ctx.app.db, company.id, { name: 'Pharmacy' });
    await buildDevice(ctx.app.db, company.id, { name: 'Pharmacy fridge', departmentId: pharmacy.id });
    await buildDevice(ctx.app.db, company.id, { name: 'Lab freezer' });
    const role = await buildRole(ctx.app.db, company.id, pharmacy.id, ['device:view']);
    const nurse = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, company.id, nurse.id, false, { departmentId: pharmacy.id, roleId: role.id });
    const names = async (token: string) =>
      (await call<Page<DeviceView>>(ctx.app, '/api/device/pageDevices', {}, { token })).body.data.list
        .map((d) => d.name)
        .sort();
    const adminToken = await login(ctx.app, company.admin.account);
    const nurseToken = await login(ctx.app, nurse.account);
    expect(await names(adminToken)).toEqual(['Lab freezer', 'Pharmacy fridge']);
    expect(await names(nurseToken)).toEqual(['Pharmacy fridge']);
    expect(await names(adminToken)).toEqual(['Lab freezer', 'Pharmacy fridge']);
    // The language is part of the question: a refusal comes back in the caller's own.
    const refusedEn = await call(
      ctx.app,
      '/api/device/deviceDetail',
      { id: '999999' },
      { token: nurseToken },
    );
    const refusedCn = await call(
      ctx.app,
      '/api/device/deviceDetail',
      { id: '999999' },
      { token: nurseToken, language: 'cn' },
    );
    expect(refusedEn.body.msgContent).toBe('The device does not exist');
    expect(refusedCn.body.msgContent).not.toBe(refusedEn.body.msgContent);
  });

  it('stops answering a caller whose right was taken away, at once', async () => {
    const company = await buildCompany(ctx.app.db);
    const pharmacy = await buildDepartment(ctx.app.db, company.id, { name: 'Pharmacy' });
    await buildDevice(ctx.app.db, company.id, { departmentId: pharmacy.id });
    const role = await buildRole(ctx.app.db, company.id, pharmacy.id, ['device:view']);
    const nurse = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, company.id, nurse.id, false, { departmentId: pharmacy.id, roleId: role.id });
    const nurseToken = await login(ctx.app, nurse.account);
    const page = () => call<Page<DeviceView>>(ctx.app, '/api/device/pageDevices', {}, { token: nurseToken });
    expect((await page()).body.data.total).toBe(1);
    const adminToken = await login(ctx.app, company.admin.account);
    const removed = await call(
      ctx.app,
      '/api/personnel/removeUser',
      { userId: String(nurse.id) },
      { token: adminToken },
    );
    expect(removed.body.msgCode).toBe(200);
    expect((await page()).body.msgCode).not.toBe(200);
  });
});

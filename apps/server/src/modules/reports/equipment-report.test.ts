import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
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
import { reportFiles } from './report-files.table';
import { type Caller, pdfText, postForFile } from './report-test-support';

const reportCall = (app: FastifyInstance, as: Caller, body: object, language = 'en') =>
  postForFile(app, as, '/api/report/equipmentReport', body, language);

const uploadDir = mkdtempSync(path.join(tmpdir(), 'equipment-report-test-'));
afterAll(() => rmSync(uploadDir, { recursive: true, force: true }));

const T0 = Date.UTC(2026, 2, 2, 0, 0, 0);
const STEP = 5 * 60_000;
const END = T0 + 3_600_000;

describe('equipment report PDF', () => {
  const ctx = useTestApp({ uploadDir });

  /** A cold room in Ward A measured by two monitors: one in Ward A, one in the root department. */
  async function seeded() {
    const company = await buildCompany(ctx.app.db, { name: 'Acme Cold Chain' });
    const admin: Caller = { token: await login(ctx.app, company.admin.account), companyId: company.id };
    const wardA = await buildDepartment(ctx.app.db, company.id, { name: 'Ward A' });
    const inWard = await buildDevice(ctx.app.db, company.id, { name: 'Probe north', departmentId: wardA.id });
    const inRoot = await buildDevice(ctx.app.db, company.id, { name: 'Probe south' });
    for (const [device, value] of [
      [inWard, 4],
      [inRoot, 6],
    ] as const) {
      const known = (await ctx.app.deviceDirectory.find(device.serial))!;
      await ctx.app.ingest.ingest(
        known,
        Array.from({ length: 12 }, (_, i) => ({
          ts: T0 + i * STEP,
          channels: [{ ch: 1, v: value }],
          mode: 'normal' as const,
        })),
      );
    }
    const post = <T>(url: string, body: unknown) => call<T>(ctx.app, url, body, admin);
    const type = await post<{ id: string }>('/api/equipmentType/saveType', {
      name: 'Cold room',
      code: '40',
      attributes: [],
    });
    const saved = await post<{ id: string; serial: string }>('/api/equipment/saveEquipment', {
      typeId: type.body.data.id,
      name: 'Cold room 1',
      serialSuffix: '0001',
      departmentId: String(wardA.id),
      attributes: {},
      sensorIds: [String(inWard.sensors[0]!.id), String(inRoot.sensors[0]!.id)],
    });
    expect(saved.body.msgContent).toBe('success');
    const empty = await post<{ id: string }>('/api/equipment/saveEquipment', {
      typeId: type.body.data.id,
      name: 'Empty freezer',
      serialSuffix: '0002',
      attributes: {},
    });
    return {
      company,
      admin,
      wardA,
      equipmentId: saved.body.data.id,
      serial: saved.body.data.serial,
      emptyId: empty.body.data.id,
    };
  }

  it('prints every sensor of the equipment in one report with one fingerprint, and records the file', async () => {
    const { company, admin, equipmentId, serial } = await seeded();
    const report = await reportCall(ctx.app, admin, {
      equipmentId,
      startTime: T0,
      endTime: END,
      timeZone: 'UTC',
    });
    expect(report.envelope).toBeNull();
    const text = await pdfText(report.pdf!);
    expect(text).toContain('Equipment data report');
    expect(text).toContain('Cold room 1');
    expect(text).toContain(serial);
    expect(text).toContain('Probe north');
    expect(text).toContain('Probe south');
    // Each sensor's statistics: 12 readings of 4 and 12 of 6.
    expect(text).toContain('Minimum 4.00');
    expect(text).toContain('Minimum 6.00');
    expect(text).toContain('This report is not signed.');
    expect(text).toContain(`Report SHA-256: ${report.fingerprint}`);
    const [row] = await ctx.app.db
      .select()
      .from(reportFiles)
      .where(eq(reportFiles.fingerprint, report.fingerprint));
    expect(row).toMatchObject({ companyId: company.id, kind: 'equipmentReport', size: report.pdf!.length });
  });

  it('prints in Chinese with a signature after the password', async () => {
    const { admin, equipmentId } = await seeded();
    await call(
      ctx.app,
      '/api/user/setSignPassword',
      { password: 'abc123', confirmPassword: 'abc123' },
      admin,
    );
    const body = {
      equipmentId,
      startTime: T0,
      endTime: END,
      signMeaning: 'reviewed',
      signPassword: 'abc123',
    };
    const text = await pdfText((await reportCall(ctx.app, admin, body, 'cn')).pdf!);
    expect(text).toContain('冷链设备数据报告');
    expect(text).toContain('本报告包含的传感器');
    expect(text).toMatch(/Company Admin \d{4}-\d\d-\d\d \d\d:\d\d:\d\d 已审核/);
  });

  it('keeps members to their department and their monitors, and other companies out', async () => {
    const { company, wardA, equipmentId, emptyId, admin } = await seeded();
    const member = async (departmentId: number) => {
      const role = await buildRole(ctx.app.db, company.id, departmentId, [
        'equipment:view',
        'device:view',
        'device:export',
      ]);
      const user = await buildUser(ctx.app.db);
      await addMember(ctx.app.db, company.id, user.id, false, { departmentId, roleId: role.id });
      return { token: await login(ctx.app, user.account), companyId: company.id };
    };
    const body = { equipmentId, startTime: T0, endTime: END };
    // Ward A sees the equipment and its own monitor; the root department's monitor is named as left out.
    const text = await pdfText((await reportCall(ctx.app, await member(wardA.id), body)).pdf!);
    expect(text).toContain('Probe north');
    expect(text).not.toContain('Probe south');
    expect(text).toContain('1 more sensor(s) of this equipment are on monitors you may not see');
    const wardB = await buildDepartment(ctx.app.db, company.id, { name: 'Ward B' });
    expect((await reportCall(ctx.app, await member(wardB.id), body)).envelope?.msgContent).toBe(
      'The equipment does not exist',
    );
    const other = await buildCompany(ctx.app.db);
    const outsider = { token: await login(ctx.app, other.admin.account), companyId: other.id };
    expect((await reportCall(ctx.app, outsider, body)).envelope?.msgContent).toBe(
      'The equipment does not exist',
    );
    expect((await reportCall(ctx.app, admin, { ...body, equipmentId: emptyId })).envelope?.msgContent).toBe(
      'This equipment has no sensor you may see; bind a sensor of a monitor to it first',
    );
    expect((await reportCall(ctx.app, admin, { ...body, endTime: T0 - 1 })).envelope?.msgContent).toContain(
      'End time',
    );
  });
});

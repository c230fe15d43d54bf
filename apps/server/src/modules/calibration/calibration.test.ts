import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CalibrationView, Page } from '@coldchain/contract';
import { and, eq } from 'drizzle-orm';
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
import { auditLog } from '../audit/audit.table';

const uploadDir = mkdtempSync(path.join(tmpdir(), 'cc-calibration-'));
afterAll(() => rmSync(uploadDir, { recursive: true, force: true }));

const DAY = 86_400_000;
const PDF = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const padTo = (head: Buffer, size: number) =>
  Buffer.concat([head, Buffer.alloc(Math.max(0, size - head.length), 0x20)]);

/** Uploads one file through the real upload call, the way the console does. */
async function uploadFile(app: FastifyInstance, token: string, bytes: Buffer, purpose: string) {
  const boundary = '----cc-calibration-boundary';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\n${purpose}\r\n`),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const response = await app.inject({
    method: 'POST',
    url: '/api/file/upload',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, accessToken: token },
    payload,
  });
  return (response.json() as { data: { url: string } }).data.url;
}

/** A file put straight into the upload directory under a name of ours, as if stored earlier. */
function storedFile(bytes: Buffer): string {
  const name = `${randomBytes(16).toString('hex')}.pdf`;
  writeFileSync(path.join(uploadDir, name), bytes);
  return `/files/${name}`;
}

describe('calibration records', () => {
  const ctx = useTestApp({ uploadDir });
  const calibratedAt = Date.UTC(2026, 0, 10);
  const nextDueAt = Date.UTC(2027, 0, 10);

  async function adminOf() {
    const company = await buildCompany(ctx.app.db);
    const token = await login(ctx.app, company.admin.account);
    const device = await buildDevice(ctx.app.db, company.id, { name: 'Vaccine fridge' });
    return { company, token, device };
  }

  it('adds records with a PDF certificate and lists them newest first, audited', async () => {
    const { company, token, device } = await adminOf();
    const certificateUrl = await uploadFile(ctx.app, token, PDF, 'calibration');
    const first = await call<CalibrationView>(
      ctx.app,
      '/api/device/addCalibration',
      {
        deviceId: device.id,
        calibratedAt,
        nextDueAt,
        institution: '  Metrology Institute  ',
        certificateUrl,
      },
      { token },
    );
    expect(first.body.msgCode).toBe(200);
    expect(first.body.data).toMatchObject({
      deviceId: device.id,
      calibratedAt,
      nextDueAt,
      institution: 'Metrology Institute',
      certificateUrl,
    });
    const second = await call<CalibrationView>(
      ctx.app,
      '/api/device/addCalibration',
      {
        deviceId: device.id,
        calibratedAt: nextDueAt,
        nextDueAt: nextDueAt + 365 * DAY,
        institution: 'Lab B',
      },
      { token },
    );
    expect(second.body.data.certificateUrl).toBeNull();

    const page = await call<Page<CalibrationView>>(
      ctx.app,
      '/api/device/pageCalibrations',
      { deviceId: device.id },
      { token },
    );
    expect(page.body.data.total).toBe(2);
    expect(page.body.data.list.map((r) => r.institution)).toEqual(['Lab B', 'Metrology Institute']);
    const served = await ctx.app.inject({ method: 'GET', url: certificateUrl });
    expect(served.headers['content-type']).toBe('application/pdf');

    const removed = await call(
      ctx.app,
      '/api/device/deleteCalibration',
      { id: second.body.data.id },
      { token },
    );
    expect(removed.body.msgCode).toBe(200);
    const after = await call<Page<CalibrationView>>(
      ctx.app,
      '/api/device/pageCalibrations',
      { deviceId: device.id },
      { token },
    );
    expect(after.body.data.list.map((r) => r.id)).toEqual([first.body.data.id]);
    const trail = await ctx.app.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.companyId, company.id), eq(auditLog.targetType, 'calibration')));
    expect(trail.map((e) => e.action).sort()).toEqual([
      'calibration.add',
      'calibration.add',
      'calibration.delete',
    ]);
  });

  it.each([
    [
      'a next time not after the calibration time',
      { nextDueAt: calibratedAt },
      'en',
      'Next calibration time must be after the calibration time',
    ],
    [
      'a next time before it (Chinese)',
      { nextDueAt: calibratedAt - DAY },
      'cn',
      '下次校准时间必须晚于校准时间',
    ],
    ['an empty institution', { institution: '   ' }, 'en', 'Calibration institution is required'],
    [
      'an institution over 100 characters',
      { institution: 'x'.repeat(101) },
      'en',
      'Calibration institution must be at most 100 characters',
    ],
    ['a missing calibration time', { calibratedAt: undefined }, 'en', 'Calibration time is required'],
    [
      'a certificate that is not a PDF path',
      { certificateUrl: '/files/0123456789abcdef0123456789abcdef.png' },
      'en',
      'Calibration certificate must be a PDF uploaded as a calibration certificate',
    ],
  ] as const)('refuses %s, naming the field', async (_case, change, language, message) => {
    const { token, device } = await adminOf();
    const { body } = await call(
      ctx.app,
      '/api/device/addCalibration',
      { deviceId: device.id, calibratedAt, nextDueAt, institution: 'Lab', ...change },
      { token, language },
    );
    expect(body).toEqual({ msgCode: 500, msgContent: message, data: null });
  });

  it('accepts an institution of exactly 100 characters', async () => {
    const { token, device } = await adminOf();
    const { body } = await call(
      ctx.app,
      '/api/device/addCalibration',
      { deviceId: device.id, calibratedAt, nextDueAt, institution: 'x'.repeat(100) },
      { token },
    );
    expect(body.msgCode).toBe(200);
  });

  it('checks the certificate by its bytes and size, and refuses a file that is not there', async () => {
    const { token, device } = await adminOf();
    const add = (certificateUrl: string, language: 'en' | 'cn' = 'en') =>
      call(
        ctx.app,
        '/api/device/addCalibration',
        { deviceId: device.id, calibratedAt, nextDueAt, institution: 'Lab', certificateUrl },
        { token, language },
      );
    // Named .pdf but an image inside: the first bytes decide.
    expect((await add(storedFile(PNG))).body.msgContent).toBe(
      'Unsupported file type: calibration certificates accepts PDF',
    );
    expect((await add(storedFile(padTo(PDF, 5 * 1_048_576)), 'cn')).body.msgContent).toBe(
      '文件过大：校准证书最大 5 MB',
    );
    expect((await add(storedFile(padTo(PDF, 5 * 1_048_576 - 1)))).body.msgCode).toBe(200);
    expect((await add('/files/0123456789abcdef0123456789abcdef.pdf')).body.msgContent).toBe(
      'The certificate file was not found; upload it again',
    );
    // The upload call itself refuses a non-PDF certificate.
    const png = await ctx.app.inject({
      method: 'POST',
      url: '/api/file/upload',
      headers: { 'content-type': 'multipart/form-data; boundary=b', accessToken: token },
      payload: Buffer.concat([
        Buffer.from('--b\r\nContent-Disposition: form-data; name="purpose"\r\n\r\ncalibration\r\n'),
        Buffer.from('--b\r\nContent-Disposition: form-data; name="file"; filename="c.pdf"\r\n\r\n'),
        PNG,
        Buffer.from('\r\n--b--\r\n'),
      ]),
    });
    expect(png.json().msgContent).toBe('Unsupported file type: calibration certificates accepts PDF');
    const page = await call<Page<CalibrationView>>(
      ctx.app,
      '/api/device/pageCalibrations',
      { deviceId: device.id },
      { token },
    );
    expect(page.body.data.total).toBe(1);
  });

  it("refuses another company's device and record", async () => {
    const mine = await adminOf();
    const theirs = await adminOf();
    const record = await call<CalibrationView>(
      ctx.app,
      '/api/device/addCalibration',
      { deviceId: theirs.device.id, calibratedAt, nextDueAt, institution: 'Lab' },
      { token: theirs.token },
    );
    for (const [url, body] of [
      [
        '/api/device/addCalibration',
        { deviceId: theirs.device.id, calibratedAt, nextDueAt, institution: 'X' },
      ],
      ['/api/device/pageCalibrations', { deviceId: theirs.device.id }],
    ] as const) {
      const { body: answer } = await call(ctx.app, url, body, { token: mine.token });
      expect(answer.msgContent, url).toBe('The device does not exist');
    }
    const removed = await call(
      ctx.app,
      '/api/device/deleteCalibration',
      { id: record.body.data.id },
      { token: mine.token },
    );
    expect(removed.body.msgContent).toBe('The calibration record does not exist');
    const still = await call<Page<CalibrationView>>(
      ctx.app,
      '/api/device/pageCalibrations',
      { deviceId: theirs.device.id },
      { token: theirs.token },
    );
    expect(still.body.data.total).toBe(1);
  });

  it("keeps a member to their department's devices and their role's tags", async () => {
    const { company, token: adminToken } = await adminOf();
    const pharmacy = await buildDepartment(ctx.app.db, company.id, { name: 'Pharmacy' });
    const store = await buildDepartment(ctx.app.db, company.id, { name: 'Cold Store' });
    const own = await buildDevice(ctx.app.db, company.id, { departmentId: pharmacy.id });
    const other = await buildDevice(ctx.app.db, company.id, { departmentId: store.id });
    const otherRecord = await call<CalibrationView>(
      ctx.app,
      '/api/device/addCalibration',
      { deviceId: other.id, calibratedAt, nextDueAt, institution: 'Lab' },
      { token: adminToken },
    );
    const member = async (tags: string[]) => {
      const role = await buildRole(ctx.app.db, company.id, pharmacy.id, tags);
      const user = await buildUser(ctx.app.db);
      await addMember(ctx.app.db, company.id, user.id, false, { departmentId: pharmacy.id, roleId: role.id });
      return login(ctx.app, user.account);
    };
    const editor = await member(['device:view', 'device:edit']);
    const viewer = await member(['device:view']);
    const add = (token: string, deviceId: string) =>
      call<CalibrationView>(
        ctx.app,
        '/api/device/addCalibration',
        { deviceId, calibratedAt, nextDueAt, institution: 'Lab' },
        { token },
      );

    const ownRecord = await add(editor, own.id);
    expect(ownRecord.body.msgCode).toBe(200);
    expect((await add(editor, other.id)).body.msgContent).toBe('The device does not exist');
    const otherList = await call(
      ctx.app,
      '/api/device/pageCalibrations',
      { deviceId: other.id },
      { token: viewer },
    );
    expect(otherList.body.msgContent).toBe('The device does not exist');
    const otherDelete = await call(
      ctx.app,
      '/api/device/deleteCalibration',
      { id: otherRecord.body.data.id },
      { token: editor },
    );
    expect(otherDelete.body.msgContent).toBe('The calibration record does not exist');

    // View only: the list, not the changes.
    const ownList = await call<Page<CalibrationView>>(
      ctx.app,
      '/api/device/pageCalibrations',
      { deviceId: own.id },
      { token: viewer },
    );
    expect(ownList.body.data.total).toBe(1);
    expect((await add(viewer, own.id)).body.msgContent).toBe('No permission for this service or operation');
    const viewerDelete = await call(
      ctx.app,
      '/api/device/deleteCalibration',
      { id: ownRecord.body.data.id },
      { token: viewer },
    );
    expect(viewerDelete.body.msgContent).toBe('No permission for this service or operation');
  });
});

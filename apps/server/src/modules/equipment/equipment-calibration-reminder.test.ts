import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { buildCompany, login } from '../../test/factories';
import { calibrationsDue } from '../calibration/calibration-reminders';

const DAY = 86_400_000;

describe('equipment calibration reminder', () => {
  const ctx = useTestApp();

  it('reminds an equipment calibration due within 30 days through the monitors’ reminder', async () => {
    const company = await buildCompany(ctx.app.db);
    const token = await login(ctx.app, company.admin.account);
    const post = <T>(url: string, body: unknown) => call<T>(ctx.app, url, body, { token });
    const type = await post<{ id: string }>('/api/equipmentType/saveType', {
      name: 'Cold room',
      code: '7',
      attributes: [],
    });
    const saved = await post<{ id: string }>('/api/equipment/saveEquipment', {
      typeId: type.body.data.id,
      serialSuffix: '0001',
      name: 'Cold room A',
    });
    const now = Date.now();
    const record = (nextDueAt: number) =>
      post('/api/equipment/addRecord', {
        equipmentId: saved.body.data.id,
        kind: 'calibration',
        calibratedAt: now - 300 * DAY,
        nextDueAt,
        institution: 'NIM',
      });
    await record(now + 40 * DAY);
    const mine = async () =>
      (await calibrationsDue(ctx.app.db, new Date(now))).filter((r) => r.companyId === company.id);
    expect(await mine()).toEqual([]);
    await record(now + 10 * DAY);
    const [reminder] = await mine();
    expect(reminder?.key).toMatch(/^equipmentCalibrationDue:/);
    expect(reminder?.content.en).toContain('Cold room A (70001)');
  });
});

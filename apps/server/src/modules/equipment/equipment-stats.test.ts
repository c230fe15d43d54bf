import type { EquipmentStats } from '@coldchain/contract';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { buildCompany, buildDevice, login } from '../../test/factories';

const MINUTE = 60_000;
const DAY = 86_400_000;

/** USP <1079> written out here, not taken from the server: ΔH 83.144 kJ/mol, R 8.3144598 J/(mol·K). */
function expectedMkt(valuesC: number[]): number {
  const hOverR = 83_144 / 8.3144598;
  const mean = valuesC.reduce((sum, c) => sum + Math.exp(-hOverR / (c + 273.15)), 0) / valuesC.length;
  return hOverR / -Math.log(mean) - 273.15;
}

describe('equipment statistics', () => {
  const ctx = useTestApp();

  it('gives MKT, min, max, mean and the minutes out of range against the scaled budget', async () => {
    const company = await buildCompany(ctx.app.db);
    const token = await login(ctx.app, company.admin.account);
    const post = <T>(url: string, body: unknown) => call<T>(ctx.app, url, body, { token });
    const device = await buildDevice(ctx.app.db, company.id, {
      channels: [
        { type: 'temperature', unit: '°C', min: -40, max: 85 },
        { type: 'temperature', unit: '°C', min: -40, max: 85 },
      ],
    });
    const start = Math.floor((Date.now() - 10 * 3_600_000) / MINUTE) * MINUTE;
    // Every 10 minutes. Channel 1 is out of 2-8 °C at 2, 3 and 6; channel 2 at 3 (overlapping) and 5.
    const ch1 = [4, 5, 9, 10, 6, 5, 1, 3];
    const ch2 = [5, 5, 5, 12, 5, 9, 5, 5];
    const known = (await ctx.app.deviceDirectory.find(device.serial))!;
    await ctx.app.ingest.ingest(
      known,
      ch1.map((v, i) => ({
        ts: start + i * 10 * MINUTE,
        channels: [
          { ch: 1, v },
          { ch: 2, v: ch2[i]! },
        ],
        mode: 'normal' as const,
      })),
    );
    const type = await post<{ id: string }>('/api/equipmentType/saveType', {
      name: 'Fridge',
      code: '5',
      attributes: [],
    });
    const saved = await post<{ id: string }>('/api/equipment/saveEquipment', {
      typeId: type.body.data.id,
      serialSuffix: '0001',
      name: 'Pharmacy fridge',
      sensorIds: device.sensors.map((s) => String(s.id)),
      excursion: { min: 2, max: 8, budgetMinutes: 60 },
    });
    expect(saved.body.msgCode).toBe(200);

    // 15 days: the 60-minute budget per 30 days scales to 30 minutes.
    const { body } = await post<EquipmentStats>('/api/equipment/equipmentStats', {
      id: saved.body.data.id,
      period: 'custom',
      startTime: start + 2 * 3_600_000 - 15 * DAY,
      endTime: start + 2 * 3_600_000,
    });
    expect(body.msgCode).toBe(200);
    const [first, second] = body.data.sensors;
    expect(first).toMatchObject({ count: 8, min: 1, max: 10, mean: 5.38 });
    expect(Math.abs(first!.mkt! - expectedMkt(ch1))).toBeLessThanOrEqual(0.005 + 1e-9);
    expect(Math.abs(second!.mkt! - expectedMkt(ch2))).toBeLessThanOrEqual(0.005 + 1e-9);
    // 9, 10 and 1 on channel 1 (30 min) and 9 on channel 2 (10 min); the 12 overlaps the 10.
    expect(body.data.minutesOutOfRange).toBe(40);
    expect(body.data.budget).toEqual({ min: 2, max: 8, budgetMinutes: 30, usedMinutes: 40, ratio: 1.333 });

    const day = await post<EquipmentStats>('/api/equipment/equipmentStats', {
      id: saved.body.data.id,
      period: 'day',
    });
    expect(day.body.data.endTime - day.body.data.startTime).toBe(DAY);
    expect(day.body.data.sensors[0]?.count).toBe(8);
    expect(day.body.data.budget?.budgetMinutes).toBe(2);

    const tooLong = await post('/api/equipment/equipmentStats', {
      id: saved.body.data.id,
      period: 'custom',
      startTime: start - 400 * DAY,
      endTime: start,
    });
    expect(tooLong.body.msgContent).toContain('at most 366 days');
    const other = await buildCompany(ctx.app.db);
    const stranger = await call(
      ctx.app,
      '/api/equipment/equipmentStats',
      { id: saved.body.data.id, period: 'day' },
      { token: await login(ctx.app, other.admin.account) },
    );
    expect(stranger.body.msgContent).toBe('The equipment does not exist');
  });
});

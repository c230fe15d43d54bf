import { createHmac, randomUUID } from 'node:crypto';
import {
  type CreatedOpenApiKey,
  OpenAlarmsPage,
  OpenDevicesPage,
  OpenReadingsView,
  openApiSigningText,
} from '@coldchain/contract';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { call, useTestApp } from '../../test/build-app';
import { buildCompany, buildDevice, login } from '../../test/factories';
import { alarmRecords, alarmSettings } from '../alarms/alarms.table';

/*
 * The OpenAPI document describes each /open/v1 answer with the zod schemas of the contract
 * (plugins/openapi-document-open.ts), which never touch the answers themselves. This holds the
 * description to the truth: every real answer parses, and parsing drops nothing (zod drops
 * fields it does not know, so an undocumented field shows up as a difference).
 */

describe('open API answers as the API document describes them', () => {
  const ctx = useTestApp({ openApiRatePerMinute: 1000 });

  it('answers devices, readings and alarms of exactly the documented shapes', async () => {
    const company = await buildCompany(ctx.app.db, { services: ['service:openApi'] });
    const admin = { token: await login(ctx.app, company.admin.account), companyId: company.id };
    const device = await buildDevice(ctx.app.db, company.id, { name: 'Documented fridge' });
    const sensor = device.sensors[0]!;
    const t0 = Date.now() - 3_600_000;
    const known = (await ctx.app.deviceDirectory.find(device.serial))!;
    await ctx.app.ingest.ingest(known, [
      { ts: t0, channels: [{ ch: 1, v: 4.5 }], mode: 'normal' as const },
      { ts: t0 + 60_000, channels: [{ ch: 1, v: 9.5 }], mode: 'normal' as const },
    ]);
    const [setting] = await ctx.app.db
      .insert(alarmSettings)
      .values({
        companyId: company.id,
        carrier: 'sensor',
        targetId: sensor.id,
        deviceId: Number(device.id),
        sensorId: sensor.id,
        level: 1,
        alarmType: 'overLimit',
        min: 2,
        max: 8,
        repeat: 1,
        notifierIds: [],
      })
      .returning();
    await ctx.app.db.insert(alarmRecords).values({
      companyId: company.id,
      deviceId: Number(device.id),
      sensorId: sensor.id,
      settingId: setting!.id,
      alarmType: 'overLimit',
      level: 1,
      alarmTime: new Date(t0 + 60_000),
      excursionStart: new Date(t0 + 60_000),
      dedupeKey: `documented:${setting!.id}`,
      content: { en: 'Above 8 °C', cn: '高于 8 °C' },
      lastValue: 9.5,
    });
    const created = await call<CreatedOpenApiKey>(ctx.app, '/api/openApi/createKey', { name: 'SDK' }, admin);
    const key = created.body.data;
    await call(ctx.app, '/api/openApi/setDevices', { id: key.id, deviceIds: [device.id] }, admin);

    async function documented(url: string, schema: z.ZodType) {
      const timestamp = String(Date.now());
      const nonce = randomUUID();
      const signature = createHmac('sha256', key.appSecret)
        .update(openApiSigningText('GET', url, timestamp, nonce, ''))
        .digest('hex');
      const res = await ctx.app.inject({
        method: 'GET',
        url,
        headers: {
          'x-app-key': key.appKey,
          'x-timestamp': timestamp,
          'x-nonce': nonce,
          'x-signature': signature,
        },
      });
      const answer = res.json() as { msgCode: number; data: unknown };
      expect({ url, msgCode: answer.msgCode }).toEqual({ url, msgCode: 200 });
      expect(schema.parse(answer.data)).toEqual(answer.data);
      return answer.data as { list?: unknown[]; points?: unknown[] };
    }

    expect((await documented('/open/v1/devices?pageNum=1&pageSize=10', OpenDevicesPage)).list).toHaveLength(
      1,
    );
    const readings = `/open/v1/sensors/${sensor.id}/readings?startTime=${t0 - 1000}&endTime=${Date.now()}`;
    expect((await documented(readings, OpenReadingsView)).points).toHaveLength(2);
    expect((await documented(`${readings}&maxPoints=2`, OpenReadingsView)).points!.length).toBeGreaterThan(0);
    expect((await documented('/open/v1/alarms?pageNum=1&pageSize=10', OpenAlarmsPage)).list).toHaveLength(1);
  });
});

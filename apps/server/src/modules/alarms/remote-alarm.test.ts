import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { devices } from '../devices/devices.table';
import { alarmFixture } from './alarm-test-support';

describe('remote alarm by version tier', () => {
  const ctx = useTestApp();

  it('refuses SMS, call, WhatsApp and WeChat on a basic device with the spec message, and allows e-mail', async () => {
    const f = await alarmFixture(ctx.app);
    await ctx.app.db
      .update(devices)
      .set({ version: 'basic' })
      .where(eq(devices.id, Number(f.device.id)));
    for (const channel of ['sms', 'call', 'whatsapp', 'wechat']) {
      const refused = await f.save({ channels: ['email', channel] });
      expect(refused.body.msgCode).toBe(500);
      expect(refused.body.msgContent).toContain(
        'The current device version has no remote alarm and needs an upgrade',
      );
    }
    const cn = await f.save({ channels: ['sms'] }, 'cn');
    expect(cn.body.msgContent).toContain('当前设备版本无远程报警功能，需升级');
    expect((await f.save({ channels: ['email'] })).body.msgCode).toBe(200);

    // The batch call applies the same rule to every chosen device, all or nothing.
    const batch = await call(
      ctx.app,
      '/api/deviceAlarmRule/batchSaveAlarmSetting',
      {
        deviceIds: [f.device.id],
        carrier: 'device',
        level: 1,
        alarmType: 'overLimit',
        min: 2,
        max: 8,
        repeat: 1,
        channels: ['call'],
        notifierIds: [String(f.company.admin.id)],
      },
      f.as,
    );
    expect(batch.body.msgContent).toContain(f.device.serial);

    // The same rule on a standard device is fine.
    await ctx.app.db
      .update(devices)
      .set({ version: 'standard' })
      .where(eq(devices.id, Number(f.device.id)));
    expect((await f.save({ channels: ['sms', 'call'] })).body.msgCode).toBe(200);
  });
});

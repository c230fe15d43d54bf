import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/build-app';
import { readings } from '../telemetry/readings.table';
import { loadEvaluationContext } from './alarm-context';
import { alarmFixture, postReadings } from './alarm-test-support';
import { alarmRecords, alarmSettings } from './alarms.table';

describe('alarms judged in the transaction that writes the reading', () => {
  const ctx = useTestApp({ loginRateLimitPerMinute: 10_000 });

  it('loads every setting field in one statement exactly as a select of the row gives it', async () => {
    const f = await alarmFixture(ctx.app);
    const saved = await f.save({
      preMin: 3,
      preMax: 7,
      hysteresis: 0.5,
      allDay: false,
      periods: [{ start: '22:00', end: '06:00' }],
      weekdays: [1, 3, 5],
      timeZone: 'Asia/Shanghai',
    });
    expect(saved.body.msgCode).toBe(200);
    const selected = await ctx.app.db
      .select()
      .from(alarmSettings)
      .where(eq(alarmSettings.deviceId, Number(f.device.id)));
    const context = await ctx.app.db.transaction((tx) =>
      loadEvaluationContext(tx, f.company.id, [Number(f.device.id)]),
    );
    expect(context.settings).toEqual(selected);
    expect(context.settings[0]!.createdAt).toBeInstanceOf(Date);
    expect(context.devices.get(Number(f.device.id))).toMatchObject({ name: 'Vaccine fridge 1' });
    expect(context.sensors.get(f.sensor.id)).toMatchObject({ rangeMin: -40, rangeMax: 85 });
  });

  it('has the alarm committed by the time the device is answered', async () => {
    const f = await alarmFixture(ctx.app, 'Fridge answered');
    expect((await f.save({})).body.msgCode).toBe(200);
    const response = await postReadings(ctx.app, f.device, [{ ts: Date.now(), v: 9.9 }]);
    expect(response.statusCode).toBe(200);
    // No wait for the engine: the reading and its alarm committed in one transaction.
    const records = await ctx.app.db
      .select()
      .from(alarmRecords)
      .where(eq(alarmRecords.deviceId, Number(f.device.id)));
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ alarmType: 'overLimit', lastValue: 9.9 });
  });

  it('still stores the readings when judging them fails, and answers the device', async () => {
    const f = await alarmFixture(ctx.app, 'Fridge with a broken engine');
    expect((await f.save({})).body.msgCode).toBe(200);
    // A real database fault inside the evaluation: the engine's state table is missing.
    await ctx.app.db.execute(sql`alter table alarm_state rename to alarm_state_away`);
    try {
      const ts = Date.now();
      const response = await postReadings(ctx.app, f.device, [{ ts, v: 9.9 }]);
      expect(response.statusCode).toBe(200);
      expect(JSON.parse(response.body)).toMatchObject({ stored: 1 });
      await ctx.app.alarms.idle();
      const stored = await ctx.app.db.select().from(readings).where(eq(readings.sensorId, f.sensor.id));
      expect(stored.map((r) => r.ts.getTime())).toEqual([ts]);
      const records = await ctx.app.db
        .select()
        .from(alarmRecords)
        .where(eq(alarmRecords.deviceId, Number(f.device.id)));
      expect(records).toHaveLength(0);
    } finally {
      await ctx.app.db.execute(sql`alter table alarm_state_away rename to alarm_state`);
    }
    // With the engine whole again, the next reading alarms.
    expect((await postReadings(ctx.app, f.device, [{ ts: Date.now() + 1, v: 9.8 }])).statusCode).toBe(200);
    const records = await ctx.app.db
      .select()
      .from(alarmRecords)
      .where(eq(alarmRecords.deviceId, Number(f.device.id)));
    expect(records).toHaveLength(1);
  });
});

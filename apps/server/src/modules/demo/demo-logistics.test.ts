import type { DeliveryDetail, DeliveryListItem, Page } from '@coldchain/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { login } from '../../test/factories';
import { alarmRecords } from '../alarms/alarms.table';
import { devices } from '../devices/devices.table';
import { seedDemoLogistics, truckPosition, truckTemperature } from './demo-logistics';
import { DEMO_ACCOUNT, DEMO_PASSWORD, seedDemo } from './demo-seed';

describe('demo logistics', () => {
  const ctx = useTestApp();

  it('seeds a received shipment and one in transit with a moving truck and one excursion, once', async () => {
    const { companyId } = await seedDemo(ctx.app.db);
    const stop = await seedDemoLogistics(ctx.app.db, companyId!, ctx.app);
    await stop();
    await (await seedDemoLogistics(ctx.app.db, companyId!, ctx.app))();
    await ctx.app.ingest.idle();
    await ctx.app.alarms.idle();

    const token = await login(ctx.app, DEMO_ACCOUNT, DEMO_PASSWORD);
    const post = <T>(url: string, body: unknown) => call<T>(ctx.app, url, body, { token });
    const sent = await post<Page<DeliveryListItem>>('/api/logistics/pageDeliveries', {});
    expect(sent.body.data.list.map((d) => [d.orderNo, d.state])).toEqual([
      ['DO-DEMO-0002', 2],
      ['DO-DEMO-0001', 4],
    ]);
    // The demo company is its own receiver (the clinic address carries its company code).
    const received = await post<Page<DeliveryListItem>>('/api/logistics/pageReceiving', {});
    expect(received.body.data.total).toBe(2);

    const [delivered, travelling] = [sent.body.data.list[1]!, sent.body.data.list[0]!];
    const done = (await post<DeliveryDetail>('/api/logistics/deliveryDetail', { id: delivered.id })).body
      .data;
    expect(done.summary).toMatchObject({ excursions: 0, minutesOutOfRange: 0 });
    expect(done.summary.readings).toBe(49);
    expect(done.receipt).toMatchObject({ accepted: true, method: 'password' });

    const live = (await post<DeliveryDetail>('/api/logistics/deliveryDetail', { id: travelling.id })).body
      .data;
    expect(live.summary.excursions).toBe(1);
    expect(live.summary.minutesOutOfRange).toBe(20);
    expect(live.monitors[0]!.lng).not.toBeNull();
    // The excursion went through the alarm engine, on the shipment's own setting.
    const [truck] = await ctx.app.db.select().from(devices).where(eq(devices.serial, 'TRK0001'));
    const alarms = await ctx.app.db.select().from(alarmRecords).where(eq(alarmRecords.deviceId, truck!.id));
    expect(alarms.filter((a) => a.alarmType === 'overLimit')).toHaveLength(1);
  });

  it('moves the truck from the warehouse towards the clinic and keeps it cold but for one excursion', () => {
    expect(truckPosition(0)).toEqual({ lng: 113.93, lat: 22.53 });
    expect(truckPosition(3 * 3_600_000).lng).toBeCloseTo(114.025, 3);
    expect(truckTemperature(45 * 60_000)).toBe(9.6);
    expect(truckTemperature(90 * 60_000)).toBeLessThan(8);
  });
});

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
    // The cool box's track: warehouse to clinic along the road, one point per reading.
    const boxRoute = done.monitors[0]!.route!;
    expect(boxRoute).toHaveLength(49);
    expect(boxRoute[0]).toMatchObject({ lng: 113.93, lat: 22.53 });
    expect(boxRoute.at(-1)).toMatchObject({ lng: 114.12, lat: 22.6 });

    const live = (await post<DeliveryDetail>('/api/logistics/deliveryDetail', { id: travelling.id })).body
      .data;
    expect(live.summary.excursions).toBe(1);
    expect(live.summary.minutesOutOfRange).toBe(20);
    expect(live.monitors[0]!.lng).not.toBeNull();
    // The truck's track so far (every five minutes for three hours), ending where it is now.
    const track = live.monitors[0]!.route!;
    expect(track.length).toBeGreaterThanOrEqual(37);
    expect(track[0]).toMatchObject(truckPosition(0));
    expect(track.at(-1)).toMatchObject({ lng: live.monitors[0]!.lng, lat: live.monitors[0]!.lat });
    // The excursion went through the alarm engine, on the shipment's own setting.
    const [truck] = await ctx.app.db.select().from(devices).where(eq(devices.serial, 'TRK0001'));
    const alarms = await ctx.app.db.select().from(alarmRecords).where(eq(alarmRecords.deviceId, truck!.id));
    expect(alarms.filter((a) => a.alarmType === 'overLimit')).toHaveLength(1);
  });

  it('moves the truck along the road to the clinic and back and keeps it cold but for one excursion', () => {
    const HOUR = 3_600_000;
    expect(truckPosition(0)).toEqual({ lng: 113.93, lat: 22.53 });
    expect(truckPosition(6 * HOUR)).toEqual({ lng: 114.12, lat: 22.6 });
    // Back towards the warehouse afterwards, never jumping: an hour either side of the clinic alike.
    expect(truckPosition(7 * HOUR)).toEqual(truckPosition(5 * HOUR));
    expect(truckPosition(12 * HOUR)).toEqual({ lng: 113.93, lat: 22.53 });
    // The road bends: halfway along it is off the straight line warehouse -> clinic.
    const half = truckPosition(3 * HOUR);
    const straightLat = 22.53 + ((half.lng - 113.93) / (114.12 - 113.93)) * (22.6 - 22.53);
    expect(Math.abs(half.lat - straightLat)).toBeGreaterThan(0.005);
    expect(truckTemperature(45 * 60_000)).toBe(9.6);
    expect(truckTemperature(90 * 60_000)).toBeLessThan(8);
  });
});

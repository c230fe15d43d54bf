import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/build-app';
import { buildCompany, buildDevice } from '../../test/factories';
import { devices } from '../devices/devices.table';
import { placeDemoDevices } from './demo-positions';

describe('demo device positions (map mode)', () => {
  const ctx = useTestApp();

  it('places located, unlocated and district-only demo monitors once, keeping later changes', async () => {
    const company = await buildCompany(ctx.app.db);
    const ids: Record<string, number> = {};
    for (const serial of ['DEMO0001', 'DEMO0008', 'DEMO0010', 'DEMO0011']) {
      const d = await buildDevice(ctx.app.db, company.id);
      await ctx.app.db
        .update(devices)
        .set({ serial })
        .where(eq(devices.id, Number(d.id)));
      ids[serial] = Number(d.id);
    }
    await placeDemoDevices(ctx.app.db, company.id);
    const row = async (serial: string) => {
      const [r] = await ctx.app.db
        .select({ lat: devices.lat, lng: devices.lng, region: devices.region, address: devices.address })
        .from(devices)
        .where(eq(devices.id, ids[serial]!));
      return r!;
    };
    expect(await row('DEMO0001')).toMatchObject({ lat: 3.1579, lng: 101.7116, region: 'Kuala Lumpur' });
    expect((await row('DEMO0001')).address).not.toBe('');
    // District only: a position and a region, no detailed address.
    expect(await row('DEMO0008')).toMatchObject({
      region: 'Petaling Jaya',
      address: '',
      lat: expect.any(Number),
    });
    // No GPS.
    expect(await row('DEMO0010')).toMatchObject({ lat: null, lng: null });
    expect(await row('DEMO0011')).toMatchObject({ lat: null, lng: null, region: 'Kuala Lumpur' });

    // A user moves a monitor: the next start leaves it where it is.
    await ctx.app.db
      .update(devices)
      .set({ region: 'Penang', address: 'Lebuh Pantai 1', lat: 5.4, lng: 100.3 })
      .where(eq(devices.id, ids.DEMO0001!));
    await placeDemoDevices(ctx.app.db, company.id);
    expect(await row('DEMO0001')).toMatchObject({ region: 'Penang', lat: 5.4 });
  });
});

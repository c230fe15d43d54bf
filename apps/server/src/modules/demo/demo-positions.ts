import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { devices } from '../devices/devices.table';

/**
 * Where the demo monitors stand, for the map mode: sites around Kuala Lumpur. Two have no GPS
 * (the map lists them with its "not uploaded GPS" message) and one has only a district, so every
 * case of the map is visible in the demo.
 */
const DEMO_POSITIONS: Record<string, { lat?: number; lng?: number; region: string; address: string }> = {
  DEMO0001: { lat: 3.1579, lng: 101.7116, region: 'Kuala Lumpur', address: 'Jalan Ampang 12, KLCC clinic' },
  DEMO0002: { lat: 3.1579, lng: 101.7123, region: 'Kuala Lumpur', address: 'Jalan Ampang 12, KLCC clinic' },
  DEMO0003: { lat: 3.1466, lng: 101.6958, region: 'Kuala Lumpur', address: 'Jalan Tun Perak 8, pharmacy' },
  DEMO0004: { lat: 3.1714, lng: 101.7006, region: 'Kuala Lumpur', address: 'Jalan Pahang, general hospital' },
  DEMO0005: { lat: 3.1718, lng: 101.7012, region: 'Kuala Lumpur', address: 'Jalan Pahang, general hospital' },
  DEMO0006: {
    lat: 3.1209,
    lng: 101.6538,
    region: 'Petaling Jaya',
    address: 'Jalan Universiti, research lab',
  },
  DEMO0007: { lat: 3.0738, lng: 101.5183, region: 'Shah Alam', address: 'Seksyen 15, cold store' },
  DEMO0008: { lat: 3.1073, lng: 101.6067, region: 'Petaling Jaya', address: '' },
  DEMO0009: { lat: 3.0733, lng: 101.5185, region: 'Shah Alam', address: 'Seksyen 15, cold store' },
  DEMO0010: { region: '', address: '' },
  DEMO0011: { region: 'Kuala Lumpur', address: 'Jalan Raja Muda, lab' },
  DEMO0012: { lat: 3.1702, lng: 101.6989, region: 'Kuala Lumpur', address: 'Jalan Pahang, ward 4' },
};

/** Places the demo monitors once; positions and addresses users or devices set later stay. */
export async function placeDemoDevices(db: Db, companyId: number): Promise<void> {
  const rows = await db
    .select({ id: devices.id, serial: devices.serial })
    .from(devices)
    .where(
      and(
        eq(devices.companyId, companyId),
        inArray(devices.serial, Object.keys(DEMO_POSITIONS)),
        isNull(devices.lat),
        eq(devices.region, ''),
        eq(devices.address, ''),
      ),
    );
  for (const row of rows) {
    const place = DEMO_POSITIONS[row.serial]!;
    if (!place.region && place.lat === undefined) continue;
    await db
      .update(devices)
      .set({ lat: place.lat ?? null, lng: place.lng ?? null, region: place.region, address: place.address })
      .where(eq(devices.id, row.id));
  }
}

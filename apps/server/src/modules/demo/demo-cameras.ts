import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { cameraDevices, cameraEquipment, cameraPlatformAccounts, cameras } from '../camera/camera.table';
import { DEMO_STREAM_URL } from '../camera/camera-demo-stream';
import { devices } from '../devices/devices.table';
import { equipment } from '../equipment/equipment.table';

/**
 * The demo's cameras (issue 19): a direct-stream account whose cameras play the short looping
 * clip the server serves from its fixture (camera-demo-stream.ts). The cold-room camera watches
 * the demo cold room (equipment and monitor); the ward camera watches the warm ward fridge, whose
 * alarm is open, so its alarm detail shows a picture from the start. Runs once per company.
 */
export async function seedDemoCameras(db: Db, companyId: number, app: FastifyInstance): Promise<void> {
  const [existing] = await db
    .select({ id: cameraPlatformAccounts.id })
    .from(cameraPlatformAccounts)
    .where(eq(cameraPlatformAccounts.companyId, companyId));
  if (existing) return;
  const [account] = await db
    .insert(cameraPlatformAccounts)
    .values({ companyId, name: 'Demo streams', platform: 'direct' })
    .returning();
  const monitors = await db
    .select({ id: devices.id, serial: devices.serial })
    .from(devices)
    .where(and(eq(devices.companyId, companyId), inArray(devices.serial, ['DEMO0007', 'DEMO0012'])));
  const monitor = (serial: string) => monitors.find((m) => m.serial === serial)?.id;
  const [coldRoom] = await db
    .select({ id: equipment.id })
    .from(equipment)
    .where(and(eq(equipment.companyId, companyId), eq(equipment.name, 'Cold room')));
  const watches = [
    {
      name: 'Cold room camera',
      serial: 'DEMO-CAM-01',
      equipmentId: coldRoom?.id,
      deviceId: monitor('DEMO0007'),
    },
    { name: 'Ward camera', serial: 'DEMO-CAM-02', equipmentId: undefined, deviceId: monitor('DEMO0012') },
  ];
  for (const watch of watches) {
    const [camera] = await db
      .insert(cameras)
      .values({
        companyId,
        platformAccountId: account!.id,
        name: watch.name,
        serial: watch.serial,
        type: 'Demo clip',
        streamUrl: DEMO_STREAM_URL,
        online: true,
        onlineCheckedAt: new Date(),
      })
      .returning();
    if (watch.equipmentId)
      await db.insert(cameraEquipment).values({ cameraId: camera!.id, equipmentId: watch.equipmentId });
    if (watch.deviceId)
      await db.insert(cameraDevices).values({ cameraId: camera!.id, deviceId: watch.deviceId });
  }
  await app.cameras.snapshots.takeForOpenAlarms(companyId);
}

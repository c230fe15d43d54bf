import type { AlarmSnapshotView } from '@coldchain/contract';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { queryRows } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { alarmRecords } from '../alarms/alarms.table';
import { sensors } from '../devices/devices.table';
import { equipmentSensors } from '../equipment/equipment.table';
import { writeUpload } from '../files/file-store';
import { sniffFileType } from '../files/file-type';
import { assertDeviceAccess } from '../org/access';
import { alarmSnapshots, cameraDevices, cameraEquipment, cameras } from './camera.table';
import { platformAccountOf } from './camera-access';
import { type CameraDeps, platformCameraOf, platformContext } from './camera-context';
import { platformAdapter } from './camera-platforms';

/** Alarms this recent get a picture; an older one found later (a restart) is past its moment. */
const RECENT_MINUTES = 10;
/** A picture still pending after this long was interrupted (a restart mid-call). */
const STALE_MINUTES = 5;

/** Alarms that did not start a condition (a device came back) get no picture. */
const NO_PICTURE_TYPES = ['online'];

function timeout<T>(work: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no picture within ${ms} ms`)), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * Takes a picture for every alarm that starts on a watched monitor or on a sensor of watched
 * equipment (issue 19 item 4). It runs after the alarm committed (told by the engine's
 * `onRaised`), never inside the alarm's transaction, each picture bounded by a timeout: a camera
 * that hangs or refuses leaves a `failed` row with its reason, and the alarm went out already.
 * Claiming is an insert that skips existing rows, so two instances never take the same picture.
 */
export class AlarmSnapshotTaker {
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly deps: CameraDeps,
    private readonly log: FastifyBaseLogger,
    private readonly snapshotTimeoutMs: number,
  ) {}

  /** Fire and forget: the caller (the alarm engine's listener) never waits for a camera. */
  noteRaised(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.sweep()
      .catch((err: unknown) => this.log.error({ err }, 'alarm snapshots failed'))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.noteRaised();
        }
      });
  }

  /** Resolves when the pictures under way are taken (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Claims the pictures new alarms need, then takes them one by one. */
  async sweep(): Promise<void> {
    await this.deps.db
      .update(alarmSnapshots)
      .set({ state: 'failed', error: 'interrupted' })
      .where(
        and(
          eq(alarmSnapshots.state, 'pending'),
          sql`${alarmSnapshots.createdAt} < now() - make_interval(mins => ${STALE_MINUTES})`,
        ),
      );
    await this.claimAndTake(sql`a.created_at > now() - make_interval(mins => ${RECENT_MINUTES})`);
  }

  /** Pictures for the company's open alarms on watched monitors, whatever their age (the demo seed). */
  async takeForOpenAlarms(companyId: number): Promise<void> {
    await this.claimAndTake(sql`a.company_id = ${companyId} and a.end_time is null`);
  }

  private async claimAndTake(which: SQL): Promise<void> {
    // From the few watched monitors and sensors to their alarms (by the company-and-device index),
    // never a scan of every alarm: this runs after every batch that raised one.
    const kinds = sql.join(
      NO_PICTURE_TYPES.map((t) => sql`${t}`),
      sql`, `,
    );
    const claimed = await queryRows<{ alarm_id: number; camera_id: number }>(
      this.deps.db,
      sql`insert into ${alarmSnapshots} (alarm_id, camera_id, company_id)
        select distinct w.alarm_id, w.camera_id, w.company_id from (
          select a.id as alarm_id, c.id as camera_id, a.company_id, a.alarm_type, a.created_at, a.end_time
            from ${cameras} c join ${cameraDevices} cd on cd.camera_id = c.id
            join ${alarmRecords} a on a.company_id = c.company_id and a.device_id = cd.device_id
          union all
          select a.id, c.id, a.company_id, a.alarm_type, a.created_at, a.end_time
            from ${cameras} c join ${cameraEquipment} ce on ce.camera_id = c.id
            join ${equipmentSensors} es on es.equipment_id = ce.equipment_id
            join ${sensors} s on s.id = es.sensor_id
            join ${alarmRecords} a on a.company_id = c.company_id and a.device_id = s.device_id and a.sensor_id = es.sensor_id
        ) w
        join ${alarmRecords} a on a.id = w.alarm_id
        where ${which} and w.alarm_type not in (${kinds})
        on conflict do nothing
        returning alarm_id, camera_id`,
    );
    for (const row of claimed) await this.take(Number(row.alarm_id), Number(row.camera_id));
  }

  private async take(alarmId: number, cameraId: number): Promise<void> {
    const { db } = this.deps;
    const done = (fields: Partial<typeof alarmSnapshots.$inferInsert>) =>
      db
        .update(alarmSnapshots)
        .set(fields)
        .where(and(eq(alarmSnapshots.alarmId, alarmId), eq(alarmSnapshots.cameraId, cameraId)));
    try {
      const [camera] = await db.select().from(cameras).where(eq(cameras.id, cameraId));
      if (!camera) throw new Error('the camera was deleted');
      const account = await platformAccountOf(db, camera.companyId, camera.platformAccountId);
      const picture = await timeout(
        platformAdapter(account.platform).snapshot(
          platformContext(this.deps, account),
          platformCameraOf(camera),
        ),
        this.snapshotTimeoutMs,
      );
      const type = sniffFileType(picture);
      if (type !== 'jpg' && type !== 'png')
        throw new Error('the platform answered something that is not a picture');
      const stored = await writeUpload(this.deps.files, picture, type);
      await done({ state: 'ok', imageUrl: stored.url, takenAt: this.deps.now() });
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 300);
      this.log.warn({ alarmId, cameraId, err: message }, 'alarm snapshot failed');
      await done({ state: 'failed', error: message, takenAt: this.deps.now() });
    }
  }
}

/** `/api/camera/alarmSnapshots`: the pictures of an alarm the caller may see. */
export async function alarmSnapshotsOf(
  deps: CameraDeps,
  auth: Auth,
  wireAlarmId: string,
): Promise<AlarmSnapshotView[]> {
  const alarmId = idFromWire(wireAlarmId);
  const [alarm] = alarmId
    ? await deps.db
        .select({ deviceId: alarmRecords.deviceId })
        .from(alarmRecords)
        .where(and(eq(alarmRecords.id, alarmId), eq(alarmRecords.companyId, auth.companyId ?? -1)))
    : [];
  if (!alarm) throw new AppError('ALARM_NOT_FOUND');
  await assertDeviceAccess(deps.db, auth, alarm.deviceId);
  const rows = await deps.db
    .select({
      cameraId: alarmSnapshots.cameraId,
      cameraName: cameras.name,
      state: alarmSnapshots.state,
      imageUrl: alarmSnapshots.imageUrl,
      error: alarmSnapshots.error,
      takenAt: alarmSnapshots.takenAt,
    })
    .from(alarmSnapshots)
    .innerJoin(cameras, eq(cameras.id, alarmSnapshots.cameraId))
    .where(eq(alarmSnapshots.alarmId, alarm ? alarmId! : -1))
    .orderBy(cameras.name, cameras.id);
  return rows.map((r) => ({
    cameraId: idToWire(r.cameraId),
    cameraName: r.cameraName,
    state: r.state as AlarmSnapshotView['state'],
    imageUrl: r.imageUrl,
    error: r.error,
    takenTime: r.takenAt?.getTime() ?? null,
  }));
}

/** The first picture of an alarm, for its e-mail (camera-picture-link.ts). */
export async function firstAlarmPicture(deps: CameraDeps, alarmId: number): Promise<string | null> {
  const [row] = await deps.db
    .select({ imageUrl: alarmSnapshots.imageUrl })
    .from(alarmSnapshots)
    .where(and(eq(alarmSnapshots.alarmId, alarmId), eq(alarmSnapshots.state, 'ok')))
    .orderBy(alarmSnapshots.cameraId)
    .limit(1);
  return row?.imageUrl ?? null;
}

import {
  type AddCalibrationRequest,
  type CalibrationView,
  type Page,
  type PageCalibrationsRequest,
  UPLOAD_URL_PREFIX,
  type WireLanguage,
} from '@coldchain/contract';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { type Actor, recordAudit } from '../audit/audit.service';
import { checkUpload, readUpload } from '../files/file-store';
import type { FileStore } from '../files/store/store';
import { assertDeviceAccess, deviceIdsWhere, editableDevices } from '../org/access';
import { deviceCalibrations } from './calibration.table';

type CalibrationRow = typeof deviceCalibrations.$inferSelect;

export function presentCalibration(row: CalibrationRow): CalibrationView {
  return {
    id: idToWire(row.id),
    // Equipment records have no device: '' keeps the view's shape for the monitors' console.
    deviceId: row.deviceId === null ? '' : idToWire(row.deviceId),
    calibratedAt: row.calibratedAt.getTime(),
    nextDueAt: row.nextDueAt.getTime(),
    institution: row.institution,
    certificateUrl: row.certificateFile ? `${UPLOAD_URL_PREFIX}${row.certificateFile}` : null,
    createdBy: row.createdBy === null ? null : idToWire(row.createdBy),
    createTime: row.createdAt.getTime(),
  };
}

/**
 * The stored name of the certificate the caller uploaded before, after checking it again with the
 * upload rules of calibration certificates (a PDF by its first bytes, under 5 MB): the path alone
 * does not prove what the file is, and the same checks apply whichever way it came.
 */
export async function acceptCertificate(
  store: FileStore,
  url: string | undefined,
  language: WireLanguage,
): Promise<string | null> {
  if (!url) return null;
  const stored = await readUpload(store, url);
  if (!stored) throw new AppError('CERTIFICATE_NOT_FOUND');
  checkUpload('calibration', stored.bytes, language);
  return stored.name;
}

/** Records a calibration of a device the caller may change; audited with the record. */
export async function addCalibration(
  db: Db,
  actor: Actor,
  auth: Auth,
  input: AddCalibrationRequest,
  files: { store: FileStore; language: WireLanguage },
): Promise<CalibrationView> {
  const deviceId = idFromWire(input.deviceId);
  await assertDeviceAccess(db, auth, deviceId, true);
  const certificateFile = await acceptCertificate(files.store, input.certificateUrl, files.language);
  return db.transaction((tx) =>
    insertCalibration(tx, actor, { deviceId: deviceId!, equipmentId: null }, input, certificateFile),
  );
}

/**
 * The one code path that stores a calibration, of a monitor or of an equipment (exactly one of
 * the two ids), and audits it. The caller has checked access and the certificate.
 */
export async function insertCalibration(
  tx: Queryable,
  actor: Actor,
  subject: { deviceId: number; equipmentId: null } | { deviceId: null; equipmentId: number },
  input: { calibratedAt: number; nextDueAt: number; institution: string },
  certificateFile: string | null,
): Promise<CalibrationView> {
  const [row] = await tx
    .insert(deviceCalibrations)
    .values({
      companyId: actor.companyId,
      ...subject,
      calibratedAt: new Date(input.calibratedAt),
      nextDueAt: new Date(input.nextDueAt),
      institution: input.institution,
      certificateFile,
      createdBy: actor.userId,
    })
    .returning();
  const view = presentCalibration(row!);
  await recordAudit(tx, actor, {
    action: 'calibration.add',
    targetType: 'calibration',
    targetId: row!.id,
    after: subject.equipmentId === null ? view : { ...view, equipmentId: idToWire(subject.equipmentId) },
  });
  return view;
}

/** A device's calibration records, newest calibration first, if the caller may see the device. */
export async function pageCalibrations(
  db: Db,
  auth: Auth,
  query: PageCalibrationsRequest,
): Promise<Page<CalibrationView>> {
  const deviceId = idFromWire(query.deviceId);
  await assertDeviceAccess(db, auth, deviceId);
  const where = and(
    eq(deviceCalibrations.companyId, auth.companyId ?? -1),
    eq(deviceCalibrations.deviceId, deviceId!),
  );
  const [total] = await db.select({ n: count() }).from(deviceCalibrations).where(where);
  const rows = await db
    .select()
    .from(deviceCalibrations)
    .where(where)
    .orderBy(desc(deviceCalibrations.calibratedAt), desc(deviceCalibrations.id))
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize);
  return {
    list: rows.map(presentCalibration),
    total: Number(total?.n ?? 0),
    pageNum: query.pageNum,
    pageSize: query.pageSize,
  };
}

/**
 * Deletes a record of a device the caller may change. The certificate file stays: uploads are
 * not reference-counted, and the audit entry keeps its path.
 */
export async function deleteCalibration(db: Db, actor: Actor, auth: Auth, wireId: string): Promise<void> {
  const id = idFromWire(wireId);
  await db.transaction(async (tx) => {
    const [row] = id
      ? await tx
          .select()
          .from(deviceCalibrations)
          .where(
            and(
              eq(deviceCalibrations.id, id),
              eq(deviceCalibrations.companyId, actor.companyId),
              // A record is changed only through a device the caller may change.
              sql`${deviceCalibrations.deviceId} IN ${deviceIdsWhere(editableDevices(auth))}`,
            ),
          )
          .for('update')
      : [];
    if (!row) throw new AppError('CALIBRATION_NOT_FOUND');
    await tx.delete(deviceCalibrations).where(eq(deviceCalibrations.id, row.id));
    await recordAudit(tx, actor, {
      action: 'calibration.delete',
      targetType: 'calibration',
      targetId: row.id,
      before: presentCalibration(row),
    });
  });
}

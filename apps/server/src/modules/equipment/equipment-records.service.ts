import {
  type AddEquipmentRecordRequest,
  type EquipmentBatchTransferRequest,
  type EquipmentRecordView,
  EquipmentUseState,
  type Page,
  type PageEquipmentRecordsRequest,
  type WireLanguage,
} from '@coldchain/contract';
import { eq, sql } from 'drizzle-orm';
import { type Db, type Queryable, queryRows } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { type Actor, recordAudit } from '../audit/audit.service';
import { acceptCertificate, insertCalibration } from '../calibration/calibration.service';
import { checkUpload, readUpload } from '../files/file-store';
import type { FileStore } from '../files/store/store';
import { assertDepartmentInScope } from '../org/access';
import { loadSigner, type Signer, verifySignature } from '../signature/signature.service';
import { equipment, equipmentRecords } from './equipment.table';
import { type EquipmentRow, equipmentOf } from './equipment-access';

type Files = { store: FileStore; language: WireLanguage };

/**
 * Spec section 5: a patrol needs the signature password, whatever the company's audit-signature
 * switch (that switch is about exports). Checked before anything is read, through the shared
 * lockout, and written with the record's audit entry as the signature's meaning.
 */
async function signPatrol(db: Db, who: Signer, password: string | undefined) {
  const state = await loadSigner(db, who);
  await verifySignature(db, who, state, password);
  return { meaning: 'patrol', signedBy: state.name, signedAt: Date.now() };
}

async function acceptPhoto(store: FileStore, url: string | undefined, language: WireLanguage) {
  if (!url) return '';
  const stored = await readUpload(store, url);
  if (!stored) throw new AppError('EQUIPMENT_FILE_NOT_FOUND', { name: url });
  const type = checkUpload('feedback', stored.bytes, language);
  if (type !== 'jpg' && type !== 'png') throw new AppError('EQUIPMENT_PHOTO_TYPE');
  return url;
}

async function writeRecord(
  tx: Queryable,
  actor: Actor,
  row: EquipmentRow,
  record: {
    kind: string;
    time: number;
    endTime?: number;
    planId?: number | null;
    details: Record<string, unknown>;
  },
  extra: Record<string, unknown> = {},
): Promise<number> {
  const [saved] = await tx
    .insert(equipmentRecords)
    .values({
      companyId: actor.companyId,
      equipmentId: row.id,
      kind: record.kind,
      time: new Date(record.time),
      endTime: record.endTime === undefined ? null : new Date(record.endTime),
      planId: record.planId ?? null,
      details: record.details,
      createdBy: actor.userId,
    })
    .returning({ id: equipmentRecords.id });
  await recordAudit(tx, actor, {
    action: `equipment.${record.kind}`,
    targetType: 'equipment',
    targetId: row.id,
    after: { recordId: saved!.id, serial: row.serial, time: record.time, ...record.details, ...extra },
  });
  return saved!.id;
}

/** Moves one equipment to another department, with its transfer record (operator = caller). */
async function transfer(
  tx: Queryable,
  actor: Actor,
  row: EquipmentRow,
  toDepartmentId: number,
  time: number,
  remarks: string,
): Promise<number> {
  if (row.useState === EquipmentUseState.Disposed) throw new AppError('EQUIPMENT_DISPOSED');
  await tx.update(equipment).set({ departmentId: toDepartmentId }).where(eq(equipment.id, row.id));
  return writeRecord(tx, actor, row, {
    kind: 'transfer',
    time,
    details: {
      fromDepartmentId: row.departmentId === null ? null : idToWire(row.departmentId),
      toDepartmentId: idToWire(toDepartmentId),
      remarks,
    },
  });
}

/**
 * Adds a lifecycle record. Records are never edited or deleted: the timeline is the trail. A scrap
 * is final (use state 3), refused while the equipment is bound to a group; disposed equipment
 * takes no further record.
 */
export async function addRecord(
  db: Db,
  actor: Actor,
  auth: Auth,
  signer: Signer,
  input: AddEquipmentRecordRequest,
  files: Files,
): Promise<{ id: string }> {
  const signature = input.kind === 'patrol' ? await signPatrol(db, signer, input.signPassword) : null;
  await equipmentOf(db, auth, input.equipmentId);
  const certificate =
    input.kind === 'calibration'
      ? await acceptCertificate(files.store, input.certificateUrl, files.language)
      : null;
  const photoUrl =
    input.kind === 'patrol' ? await acceptPhoto(files.store, input.photoUrl, files.language) : '';
  const toDepartmentId =
    input.kind === 'transfer' ? await assertDepartmentInScope(db, auth, input.toDepartmentId) : null;
  const id = await db.transaction(async (tx) => {
    const row = await equipmentOf(tx, auth, input.equipmentId, true);
    if (row.useState === EquipmentUseState.Disposed)
      throw new AppError(input.kind === 'scrap' ? 'EQUIPMENT_ALREADY_DISPOSED' : 'EQUIPMENT_DISPOSED');
    switch (input.kind) {
      case 'calibration': {
        const view = await insertCalibration(
          tx,
          actor,
          { deviceId: null, equipmentId: row.id },
          input,
          certificate,
        );
        return Number(view.id);
      }
      case 'repair':
        return writeRecord(tx, actor, row, {
          kind: 'repair',
          time: input.faultTime,
          details: {
            unit: input.unit,
            person: input.person,
            faultTime: input.faultTime,
            cause: input.cause,
            repaired: input.repaired,
            repairTime: input.repairTime ?? null,
          },
        });
      case 'maintenance':
        return writeRecord(tx, actor, row, {
          kind: 'maintenance',
          time: input.startTime,
          endTime: input.endTime,
          details: {
            unit: input.unit,
            person: input.person,
            startTime: input.startTime,
            endTime: input.endTime,
            preventive: input.preventive,
            remarks: input.remarks ?? '',
            durationMinutes: Math.round((input.endTime - input.startTime) / 60_000),
          },
        });
      case 'scrap':
        if (row.groupId !== null) throw new AppError('EQUIPMENT_GROUPED');
        await tx
          .update(equipment)
          .set({ useState: EquipmentUseState.Disposed })
          .where(eq(equipment.id, row.id));
        return writeRecord(tx, actor, row, {
          kind: 'scrap',
          time: input.time,
          details: { scrapType: input.scrapType, time: input.time, remarks: input.remarks ?? '' },
        });
      case 'transfer':
        return transfer(tx, actor, row, toDepartmentId!, input.time ?? Date.now(), input.remarks ?? '');
      case 'patrol':
        return writeRecord(
          tx,
          actor,
          row,
          {
            kind: 'patrol',
            time: input.time,
            planId: idFromWire(input.planId),
            details: {
              planId: input.planId ?? null,
              time: input.time,
              person: input.person,
              reading: input.reading ?? null,
              condition: input.condition,
              remarks: input.remarks ?? '',
              photoUrl,
            },
          },
          { signature },
        );
    }
  });
  return { id: idToWire(id) };
}

/** Transfers several equipment at once; each gets its own transfer record. */
export async function batchTransfer(
  db: Db,
  actor: Actor,
  auth: Auth,
  input: EquipmentBatchTransferRequest,
): Promise<{ count: number }> {
  const toDepartmentId = (await assertDepartmentInScope(db, auth, input.toDepartmentId))!;
  return db.transaction(async (tx) => {
    const ids = [...new Set(input.ids)];
    for (const id of ids) {
      const row = await equipmentOf(tx, auth, id, true);
      await transfer(tx, actor, row, toDepartmentId, Date.now(), input.remarks ?? '');
    }
    return { count: ids.length };
  });
}

/**
 * The timeline: calibrations (kept with the monitors' in `device_calibrations`) and the other
 * records, in one list newest first, paged in the database.
 */
export async function pageRecords(
  db: Db,
  auth: Auth,
  query: PageEquipmentRecordsRequest,
): Promise<Page<EquipmentRecordView>> {
  const row = await equipmentOf(db, auth, query.equipmentId);
  const kind = query.kind ?? null;
  const union = sql`(
    select 'calibration' as kind, c.id, c.calibrated_at as time, c.created_by, c.created_at,
      json_build_object('calibratedAt', (extract(epoch from c.calibrated_at) * 1000)::bigint,
        'nextDueAt', (extract(epoch from c.next_due_at) * 1000)::bigint, 'institution', c.institution,
        'certificateUrl', case when c.certificate_file is null then null else '/files/' || c.certificate_file end)::jsonb as details
    from device_calibrations c where c.equipment_id = ${row.id}
    union all
    select r.kind, r.id, r.time, r.created_by, r.created_at, r.details
    from equipment_records r where r.equipment_id = ${row.id}
  ) t`;
  const filter = kind ? sql`where t.kind = ${kind}` : sql``;
  const [total] = await queryRows<{ n: string | number }>(
    db,
    sql`select count(*) as n from ${union} ${filter}`,
  );
  const rows = await queryRows<{
    kind: string;
    id: string | number;
    time: Date | string;
    created_by: string | number | null;
    created_at: Date | string;
    details: Record<string, unknown> | string;
    created_by_name: string | null;
    from_name: string | null;
    to_name: string | null;
  }>(
    db,
    sql`select t.*, u.name as created_by_name, fd.name as from_name, td.name as to_name
        from ${union}
        left join users u on u.id = t.created_by
        left join departments fd on t.kind = 'transfer' and fd.id = (t.details->>'fromDepartmentId')::bigint
        left join departments td on t.kind = 'transfer' and td.id = (t.details->>'toDepartmentId')::bigint
        ${filter}
        order by t.time desc, t.created_at desc, t.id desc
        limit ${query.pageSize} offset ${(query.pageNum - 1) * query.pageSize}`,
  );
  return {
    list: rows.map((r) => {
      const details = typeof r.details === 'string' ? JSON.parse(r.details) : r.details;
      return {
        ...details,
        ...(r.kind === 'transfer'
          ? {
              fromDepartmentName: r.from_name ?? '',
              toDepartmentName: r.to_name ?? '',
              operator: r.created_by_name ?? '',
            }
          : {}),
        id: idToWire(Number(r.id)),
        kind: r.kind as EquipmentRecordView['kind'],
        equipmentId: idToWire(row.id),
        time: new Date(r.time).getTime(),
        createdBy: r.created_by === null ? null : idToWire(Number(r.created_by)),
        createdByName: r.created_by_name ?? '',
        createTime: new Date(r.created_at).getTime(),
      };
    }),
    total: Number(total?.n ?? 0),
    pageNum: query.pageNum,
    pageSize: query.pageSize,
  };
}

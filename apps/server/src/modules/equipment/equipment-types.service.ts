import type {
  EquipmentTypeView,
  Page,
  PageEquipmentTypesRequest,
  SaveEquipmentTypeRequest,
  WireLanguage,
} from '@coldchain/contract';
import { and, count, eq, ilike, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client';
import { decodeJsonRow, jsonRowOf } from '../../db/json-rows';
import { pageOf, whenGiven } from '../../db/page-query';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { type Actor, recordAudit } from '../audit/audit.service';
import { checkUpload, readUpload } from '../files/file-store';
import type { FileStore } from '../files/store/store';
import { equipment, equipmentTypes } from './equipment.table';
import { storeAttributes, valuesFit } from './equipment-attributes';

type TypeRow = typeof equipmentTypes.$inferSelect;

export function presentType(row: TypeRow, equipmentCount: number): EquipmentTypeView {
  return {
    id: idToWire(row.id),
    name: row.name,
    code: row.code,
    introImage: row.introImage,
    attributes: row.attributes,
    equipmentCount,
    createTime: row.createdAt.getTime(),
  };
}

/** A type of the caller's company, or "does not exist". Types are company-wide (no department). */
export async function typeOf(db: Queryable, companyId: number | null, wireId: string): Promise<TypeRow> {
  const id = idFromWire(wireId);
  const [row] = id
    ? await db
        .select()
        .from(equipmentTypes)
        .where(and(eq(equipmentTypes.id, id), eq(equipmentTypes.companyId, companyId ?? -1)))
    : [];
  if (!row) throw new AppError('EQUIPMENT_TYPE_NOT_FOUND');
  return row;
}

async function acceptIntroImage(store: FileStore, url: string | undefined, language: WireLanguage) {
  if (!url) return '';
  const stored = await readUpload(store, url);
  if (!stored) throw new AppError('EQUIPMENT_FILE_NOT_FOUND', { name: url });
  const type = checkUpload('attachment', stored.bytes, language);
  if (type !== 'jpg' && type !== 'png') throw new AppError('EQUIPMENT_INTRO_IMAGE_TYPE');
  return url;
}

const usersOf = (db: Queryable, typeId: number) =>
  db.select({ attributes: equipment.attributes }).from(equipment).where(eq(equipment.typeId, typeId));

/**
 * Creates or changes a type. Stored equipment values are never rewritten: the answer counts the
 * equipment whose values no longer fit the changed attributes (they list them when read). The
 * code is fixed while equipment uses the type, because their serials and labels carry it.
 */
export async function saveType(
  db: Db,
  actor: Actor,
  input: SaveEquipmentTypeRequest,
  files: { store: FileStore; language: WireLanguage },
): Promise<{ id: string; affectedEquipment: number }> {
  const introImage = await acceptIntroImage(files.store, input.introImage, files.language);
  return db.transaction(async (tx) => {
    const before = input.id ? await typeOf(tx, actor.companyId, input.id) : null;
    const attributes = storeAttributes(input.attributes, before?.attributes ?? []);
    const users = before ? await usersOf(tx, before.id) : [];
    if (before && before.code !== input.code && users.length > 0)
      throw new AppError('EQUIPMENT_TYPE_CODE_IN_USE');
    const [taken] = await tx
      .select({ id: equipmentTypes.id })
      .from(equipmentTypes)
      .where(
        and(
          eq(equipmentTypes.companyId, actor.companyId),
          eq(equipmentTypes.code, input.code),
          before ? sql`${equipmentTypes.id} <> ${before.id}` : undefined,
        ),
      );
    if (taken) throw new AppError('EQUIPMENT_TYPE_CODE_TAKEN');
    const values = { name: input.name, code: input.code, introImage, attributes };
    const [row] = before
      ? await tx.update(equipmentTypes).set(values).where(eq(equipmentTypes.id, before.id)).returning()
      : await tx
          .insert(equipmentTypes)
          .values({ ...values, companyId: actor.companyId })
          .returning();
    const affectedEquipment = users.filter((u) => !valuesFit(attributes, u.attributes)).length;
    await recordAudit(tx, actor, {
      action: 'equipmentType.save',
      targetType: 'equipmentType',
      targetId: row!.id,
      before: before ? presentType(before, users.length) : undefined,
      after: { ...presentType(row!, users.length), affectedEquipment },
    });
    return { id: idToWire(row!.id), affectedEquipment };
  });
}

const equipmentCount = sql<number>`(SELECT count(*) FROM ${equipment} e WHERE e.type_id = ${equipmentTypes.id})`;

/** A list row as one JSON value: the type and how many equipment use it. */
const typeRow = sql`json_build_object('t', ${jsonRowOf(equipmentTypes, 'equipment_types')}, 'n', ${equipmentCount})`;

/** `/api/equipmentType/pageTypes`: one statement (db/page-query.ts), by code. */
export async function pageTypes(
  db: Db,
  auth: Auth,
  query: PageEquipmentTypesRequest,
): Promise<Page<EquipmentTypeView>> {
  const keyword = query.keyword ? `%${query.keyword.replace(/[\\%_]/g, '\\$&')}%` : null;
  const where = and(
    eq(equipmentTypes.companyId, auth.companyId ?? -1),
    whenGiven(
      keyword,
      'text',
      (k) => sql`(${ilike(equipmentTypes.name, k)} or ${ilike(equipmentTypes.code, k)})`,
    ),
  );
  return pageOf(
    db,
    { row: typeRow, from: equipmentTypes, where, orderBy: sql`${equipmentTypes.code}, ${equipmentTypes.id}` },
    query,
    (raw: { t: Record<string, unknown>; n: number | string }) =>
      presentType(decodeJsonRow(equipmentTypes, raw.t), Number(raw.n)),
  );
}

export async function typeDetail(db: Db, auth: Auth, wireId: string): Promise<EquipmentTypeView> {
  const row = await typeOf(db, auth.companyId, wireId);
  const [n] = await db.select({ n: count() }).from(equipment).where(eq(equipment.typeId, row.id));
  return presentType(row, Number(n?.n ?? 0));
}

/** Deletes a type no equipment uses (disposed equipment counts: its history names the type). */
export async function deleteType(db: Db, actor: Actor, wireId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await typeOf(tx, actor.companyId, wireId);
    const [n] = await tx.select({ n: count() }).from(equipment).where(eq(equipment.typeId, row.id));
    if (Number(n?.n ?? 0) > 0) throw new AppError('EQUIPMENT_TYPE_IN_USE', { count: Number(n!.n) });
    await tx.delete(equipmentTypes).where(eq(equipmentTypes.id, row.id));
    await recordAudit(tx, actor, {
      action: 'equipmentType.delete',
      targetType: 'equipmentType',
      targetId: row.id,
      before: presentType(row, 0),
    });
  });
}

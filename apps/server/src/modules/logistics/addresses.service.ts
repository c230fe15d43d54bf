import type { AddressView, Page, PageAddressesRequest, SaveAddressRequest } from '@coldchain/contract';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { type Db, type Queryable, queryRows } from '../../db/client';
import { decodeJsonRow, jsonRowOf } from '../../db/json-rows';
import { pageOf, whenGiven } from '../../db/page-query';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import { type Actor, recordAudit } from '../audit/audit.service';
import { companies } from '../companies/companies.table';
import { departments } from '../org/org.table';
import { addressUsageCount } from './address-usage';
import { logisticsAddresses as t } from './addresses.table';

type AddressRow = typeof t.$inferSelect;

/**
 * The receiving company by its company code (its top department's code). Only a caller who was
 * given the code can link the company, so its name is shown to nobody who could not prove the
 * link; an unknown code and a sub-department's code read alike.
 */
async function receiverByCode(db: Queryable, code: string): Promise<number> {
  const [root] = await db
    .select({ companyId: departments.companyId })
    .from(departments)
    .where(and(eq(departments.code, code), isNull(departments.parentId)));
  if (!root) throw new AppError('LOGISTICS_RECEIVER_UNKNOWN');
  return root.companyId;
}

/** The company's address, or "does not exist" (another company's id included). */
async function addressOf(
  db: Queryable,
  companyId: number,
  wireId: string,
  forUpdate = false,
): Promise<AddressRow> {
  const id = idFromWire(wireId);
  const query = db
    .select()
    .from(t)
    .where(and(eq(t.id, id ?? 0), eq(t.companyId, companyId)));
  const [row] = id ? await (forUpdate ? query.for('update') : query) : [];
  if (!row) throw new AppError('LOGISTICS_ADDRESS_NOT_FOUND');
  return row;
}

/** What the operation log keeps of an address: what a person reads, not the bookkeeping. */
function audited(row: Partial<AddressRow>) {
  const { name, contact, phone, region, address, lng, lat, remarks, receiverCompanyId } = row;
  return { name, contact, phone, region, address, lng, lat, remarks, receiverCompanyId };
}

/** `/api/logistics/saveAddress`: adds an address, or edits the company's address `id`. */
export async function saveAddress(db: Db, actor: Actor, input: SaveAddressRequest): Promise<{ id: string }> {
  return db.transaction(async (tx) => {
    const fields = {
      name: input.name,
      contact: input.contact,
      phone: input.phone,
      region: input.region ?? '',
      address: input.address,
      lng: input.lng ?? null,
      lat: input.lat ?? null,
      remarks: input.remarks ?? '',
    };
    const receiver =
      input.receiverCompanyCode === undefined
        ? {}
        : {
            receiverCompanyId: input.receiverCompanyCode
              ? await receiverByCode(tx, input.receiverCompanyCode)
              : null,
          };
    if (input.id) {
      const before = await addressOf(tx, actor.companyId, input.id, true);
      const [after] = await tx
        .update(t)
        .set({ ...fields, ...receiver, updatedAt: new Date() })
        .where(eq(t.id, before.id))
        .returning();
      await recordAudit(tx, actor, {
        action: 'logisticsAddress.edit',
        targetType: 'logisticsAddress',
        targetId: String(before.id),
        before: audited(before),
        after: audited(after!),
      });
      return { id: idToWire(before.id) };
    }
    const [row] = await tx
      .insert(t)
      .values({ ...fields, ...receiver, companyId: actor.companyId, createdBy: actor.userId })
      .returning();
    await recordAudit(tx, actor, {
      action: 'logisticsAddress.add',
      targetType: 'logisticsAddress',
      targetId: String(row!.id),
      after: audited(row!),
    });
    return { id: idToWire(row!.id) };
  });
}

/** `/api/logistics/deleteAddress`: refused while a delivery order names the address. */
export async function deleteAddress(db: Db, actor: Actor, wireId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await addressOf(tx, actor.companyId, wireId, true);
    const used = await addressUsageCount(tx, actor.companyId, row.id);
    if (used > 0) throw new AppError('LOGISTICS_ADDRESS_IN_USE', { count: used });
    await tx.delete(t).where(eq(t.id, row.id));
    await recordAudit(tx, actor, {
      action: 'logisticsAddress.delete',
      targetType: 'logisticsAddress',
      targetId: String(row.id),
      before: audited(row),
    });
  });
}

/** One address as a JSON value, with its receiving company's code and name (one statement). */
const addressRow = sql`json_build_object(
  'a', ${jsonRowOf(t, 'logistics_addresses')},
  'receiver', (select json_build_object('code', d.code, 'name', c.name)
    from ${companies} c join ${departments} d on d.company_id = c.id and d.parent_id is null
    where c.id = ${t.receiverCompanyId} limit 1))`;

interface RawAddress {
  a: Record<string, unknown>;
  receiver: { code: string; name: string } | null;
}

function presentAddress(raw: RawAddress): AddressView {
  const a = decodeJsonRow(t, raw.a);
  return {
    id: idToWire(a.id),
    name: a.name,
    contact: a.contact,
    phone: a.phone,
    region: a.region,
    address: a.address,
    lng: a.lng,
    lat: a.lat,
    remarks: a.remarks,
    receiverCompany: raw.receiver ? { code: raw.receiver.code, name: raw.receiver.name } : null,
    createTime: a.createdAt.getTime(),
    updateTime: a.updatedAt.getTime(),
  };
}

const likeOf = (text: string | undefined) => (text ? text.replace(/[\\%_]/g, (c) => `\\${c}`) : null);

/**
 * `/api/logistics/pageAddresses`: the company's addresses by name, one statement. The keyword
 * matches name, contact, phone or address; the region matches from its start, so a province
 * finds its cities' addresses.
 */
export async function pageAddresses(
  db: Db,
  companyId: number,
  query: PageAddressesRequest,
): Promise<Page<AddressView>> {
  const keyword = likeOf(query.keyword);
  const region = likeOf(query.region);
  const where = and(
    eq(t.companyId, companyId),
    whenGiven(
      keyword,
      'text',
      (v) =>
        sql`(${t.name} ilike '%' || ${v} || '%' or ${t.contact} ilike '%' || ${v} || '%' or ${t.phone} ilike '%' || ${v} || '%' or ${t.address} ilike '%' || ${v} || '%')`,
    ),
    whenGiven(region, 'text', (v) => sql`${t.region} ilike ${v} || '%'`),
  );
  return pageOf(
    db,
    { row: addressRow, from: t, where, orderBy: sql`${t.name}, ${t.id}` },
    query,
    presentAddress,
  );
}

/** `/api/logistics/addressDetail`: one address of the company, one statement. */
export async function addressDetail(db: Db, companyId: number, wireId: string): Promise<AddressView> {
  const id = idFromWire(wireId);
  const [row] = id
    ? await queryRows<{ row: RawAddress | string }>(
        db,
        sql`select ${addressRow} as row from ${t} where ${t.id} = ${id} and ${t.companyId} = ${companyId}`,
      )
    : [];
  if (!row) throw new AppError('LOGISTICS_ADDRESS_NOT_FOUND');
  // Drivers differ: node-postgres parses json, PGlite may hand it over as text.
  return presentAddress(typeof row.row === 'string' ? (JSON.parse(row.row) as RawAddress) : row.row);
}

import type {
  InventoryCsvPreview,
  InventoryImportResult,
  InventoryRowView,
  Page,
  PageInventoryRequest,
  WireLanguage,
} from '@coldchain/contract';
import { inArray, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client';
import { pageOf, whenGiven } from '../../db/page-query';
import { AppError } from '../../lib/app-error';
import { idToWire } from '../../lib/ids';
import { recordAudit } from '../audit/audit.service';
import { companies } from '../companies/companies.table';
import { devices } from '../devices/devices.table';
import { addInventory } from '../inventory/inventory.service';
import { deviceInventory } from '../inventory/inventory.table';
import { parseInventoryCsv } from '../inventory/inventory-csv';
import type { OperatorActor } from './operator-companies.service';
import { PLATFORM_CHAIN } from './operators.service';

/**
 * What importing the stock CSV would do, line by line: the same parser as `npm run admin --
 * inventory import` (modules/inventory/inventory-csv.ts), and which serials are already there.
 */
export async function previewInventoryCsv(
  db: Queryable,
  csv: string,
  language: WireLanguage,
): Promise<InventoryCsvPreview> {
  const { items, problems } = parseInventoryCsv(csv, language);
  const serials = items.map((i) => i.serial);
  const known =
    serials.length === 0
      ? []
      : await db
          .select({ serial: deviceInventory.serial })
          .from(deviceInventory)
          .where(inArray(deviceInventory.serial, serials));
  const existing = new Set(known.map((k) => k.serial));
  return {
    lines: items.map((i) => ({
      serial: i.serial,
      model: i.model,
      version: i.version,
      channelCount: i.channels.length,
      exists: existing.has(i.serial),
    })),
    problems,
  };
}

/**
 * Imports the stock CSV: all or nothing, as the admin command does. A file with a bad line is
 * refused naming the first one (the preview lists them all). Audited in the platform chain.
 */
export async function importInventoryCsv(
  db: Db,
  actor: OperatorActor,
  csv: string,
  language: WireLanguage,
): Promise<InventoryImportResult> {
  const { items, problems } = parseInventoryCsv(csv, language);
  const first = problems[0];
  if (first)
    throw new AppError('INVENTORY_CSV_INVALID', {
      count: problems.length,
      line: first.line,
      reason: first.reason,
    });
  if (items.length === 0) throw new AppError('INVENTORY_CSV_EMPTY');
  return db.transaction(async (tx) => {
    const added = await addInventory(tx, items);
    await recordAudit(
      tx,
      { companyId: PLATFORM_CHAIN, ...actor },
      {
        action: 'operator.importInventory',
        targetType: 'inventory',
        targetId: items.length,
        after: { added, serials: items.map((i) => i.serial).slice(0, 200) },
      },
    );
    return { added, existing: items.length - added };
  });
}

interface InventoryRaw {
  serial: string;
  model: string;
  version: string;
  channelCount: number;
  createdMs: number;
  companyId: number | null;
  companyName: string | null;
}

/** The stock, newest first, by a part of the serial or model, bound to a company or not. */
export function pageInventory(db: Db, query: PageInventoryRequest): Promise<Page<InventoryRowView>> {
  const keyword = query.keyword ? `%${query.keyword.replace(/[\\%_]/g, '\\$&')}%` : null;
  const bound = sql`exists (select 1 from ${devices} d where d.serial = ${deviceInventory.serial})`;
  return pageOf(
    db,
    {
      row: sql`json_build_object('serial', ${deviceInventory.serial}, 'model', ${deviceInventory.model},
        'version', ${deviceInventory.version}, 'channelCount', ${deviceInventory.channelCount},
        'createdMs', (extract(epoch from ${deviceInventory.createdAt}) * 1000)::float8,
        'companyId', (select d.company_id from ${devices} d where d.serial = ${deviceInventory.serial}),
        'companyName', (select c.name from ${devices} d join ${companies} c on c.id = d.company_id
          where d.serial = ${deviceInventory.serial}))`,
      from: deviceInventory,
      where: sql`${whenGiven(keyword, 'text', (p) => sql`(${deviceInventory.serial} ilike ${p} or ${deviceInventory.model} ilike ${p})`)}
        and ${whenGiven(query.bound === undefined ? null : query.bound ? 1 : 0, 'int', (p) => sql`(${bound}) = (${p} = 1)`)}`,
      orderBy: sql`${deviceInventory.createdAt} desc, ${deviceInventory.serial}`,
    },
    query,
    (raw: InventoryRaw) => ({
      serial: raw.serial,
      model: raw.model,
      version: raw.version,
      channelCount: raw.channelCount,
      createTime: Math.round(raw.createdMs),
      companyId: raw.companyId === null ? null : idToWire(Number(raw.companyId)),
      companyName: raw.companyName,
    }),
  );
}

import { OrderStatus } from '@coldchain/contract';
import type { Db } from '../../db/client';
import { writeUpload } from '../files/file-store';
import type { FileStore } from '../files/store/store';
import { setOperator } from '../operator/operators.service';
import { orders } from './orders.table';

/** The smallest files the upload checks accept as a PNG and a PDF. */
export const PNG_BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
export const PDF_BYTES = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

export async function storeFile(files: FileStore, kind: 'png' | 'pdf'): Promise<string> {
  return (await writeUpload(files, kind === 'png' ? PNG_BYTES : PDF_BYTES, kind)).url;
}

/** An order of the company as the operator left it: approved (paid) unless told otherwise. */
export async function buildOrder(
  db: Db,
  companyId: number,
  amountCents: number,
  fields: { status?: OrderStatus; createdBy?: number; kind?: string } = {},
): Promise<number> {
  const [row] = await db
    .insert(orders)
    .values({
      companyId,
      kind: fields.kind ?? 'renewal',
      lines: [],
      months: 1,
      amountCents,
      status: fields.status ?? OrderStatus.Approved,
      createdBy: fields.createdBy ?? null,
      decidedAt: fields.status === OrderStatus.Pending ? null : new Date(),
    })
    .returning({ id: orders.id });
  return row!.id;
}

/** A platform operator's account (modules/operator), flagged through the real service. */
export async function makeOperator(db: Db, account: string): Promise<void> {
  if (!(await setOperator(db, account, true))) throw new Error(`no user ${account}`);
}

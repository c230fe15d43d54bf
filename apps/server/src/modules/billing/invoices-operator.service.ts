import {
  InvoiceStatus,
  type IssueInvoiceRequest,
  type OperatorInvoiceView,
  type OperatorPageInvoicesRequest,
  type Page,
  type RejectWithReasonRequest,
} from '@coldchain/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client';
import { pageOf, whenGiven } from '../../db/page-query';
import { invoiceIssuedMail } from '../../i18n/catalogues/invoices';
import { AppError } from '../../lib/app-error';
import { idFromWire } from '../../lib/ids';
import { recordAudit } from '../audit/audit.service';
import { companies } from '../companies/companies.table';
import { readUpload } from '../files/file-store';
import { sniffFileType } from '../files/file-type';
import type { FileStore } from '../files/store/store';
import type { Mailer } from '../notify/mailer';
import { sendMessage } from '../notify/outbox.service';
import { closeApplication } from './invoices.service';
import { invoiceApplications } from './invoices.table';
import { INVOICE_ROW, type InvoiceRowJson, presentOperatorInvoice } from './invoices-view';

/*
 * The supplier's side of invoice applications (operator console): every company's applications,
 * issue one with its PDF, reject one with a reason. Guarded by requireOperator (routes).
 */

export interface OperatorActor {
  userId: number;
  ip: string;
}

export async function pageAllInvoices(
  db: Queryable,
  query: OperatorPageInvoicesRequest,
): Promise<Page<OperatorInvoiceView>> {
  const where = and(
    whenGiven(query.status, 'smallint', (v) => sql`${invoiceApplications.status} = ${v}`),
    whenGiven(
      query.companyName,
      'text',
      (v) =>
        sql`exists (select 1 from ${companies} c where c.id = ${invoiceApplications.companyId} and strpos(lower(c.name), lower(${v})) > 0)`,
    ),
  );
  return pageOf(
    db,
    {
      row: INVOICE_ROW,
      from: invoiceApplications,
      where,
      // Work first: applications in progress, oldest first; then the rest newest first.
      orderBy: sql`(${invoiceApplications.status} = 1) desc,
        case when ${invoiceApplications.status} = 1 then ${invoiceApplications.id} else -${invoiceApplications.id} end`,
    },
    query,
    (raw: InvoiceRowJson) => presentOperatorInvoice(raw),
  );
}

async function lockInProgress(tx: Queryable, wireId: string) {
  const id = idFromWire(wireId) ?? 0;
  const [row] = await tx
    .select()
    .from(invoiceApplications)
    .where(eq(invoiceApplications.id, id))
    .for('update');
  if (!row) throw new AppError('INVOICE_NOT_FOUND');
  if (row.status !== InvoiceStatus.InProgress) throw new AppError('INVOICE_NOT_IN_PROGRESS');
  return row;
}

/**
 * Issues an application: the PDF (uploaded through `/api/file/upload`, purpose `attachment`) must
 * really be a PDF. An electronic invoice is e-mailed with the PDF attached, through the outbox
 * (which keeps the text when no SMTP server is configured); the company also downloads the PDF in
 * the console.
 */
export async function issueInvoice(
  db: Db,
  actor: OperatorActor,
  files: FileStore,
  mailer: Mailer | null,
  input: IssueInvoiceRequest,
): Promise<void> {
  const stored = await readUpload(files, input.pdfFile);
  if (!stored || sniffFileType(stored.bytes) !== 'pdf') throw new AppError('INVOICE_PDF_REQUIRED');
  const issued = await db.transaction(async (tx) => {
    const row = await lockInProgress(tx, input.id);
    await tx
      .update(invoiceApplications)
      .set({ status: InvoiceStatus.Generated, pdfFile: input.pdfFile, decidedAt: new Date() })
      .where(eq(invoiceApplications.id, row.id));
    await recordAudit(
      tx,
      { companyId: row.companyId, userId: actor.userId, ip: actor.ip },
      {
        action: 'invoice.issue',
        targetType: 'invoice',
        targetId: row.id,
        before: { status: row.status },
        after: { status: InvoiceStatus.Generated, pdfFile: input.pdfFile },
      },
    );
    return row;
  });
  if (issued.type === 'electronic' && issued.email) {
    await sendMessage(db, mailer, {
      companyId: issued.companyId,
      channel: 'email',
      recipient: issued.email,
      subject: invoiceIssuedMail.subject,
      body: invoiceIssuedMail.body(issued.title, (issued.amountCents / 100).toFixed(2)),
      attachments: [
        { filename: `invoice-${issued.id}.pdf`, content: stored.bytes, contentType: 'application/pdf' },
      ],
    });
  }
}

export async function rejectInvoice(
  db: Db,
  actor: OperatorActor,
  input: RejectWithReasonRequest,
): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await lockInProgress(tx, input.id);
    await closeApplication(tx, row.id, { status: InvoiceStatus.Rejected, rejectReason: input.reason });
    await recordAudit(
      tx,
      { companyId: row.companyId, userId: actor.userId, ip: actor.ip },
      {
        action: 'invoice.reject',
        targetType: 'invoice',
        targetId: row.id,
        before: { status: row.status },
        after: { status: InvoiceStatus.Rejected, reason: input.reason },
      },
    );
  });
}

import { z } from 'zod';
import { StoredUploadPath } from './billing';

/*
 * Invoice applications (spec sections 3 and 9, API.md "Billing"). A company applies for an
 * invoice over its paid orders that are not yet on a live application; the supplier's operator
 * issues it by uploading the invoice PDF or rejects it with a reason. Amounts are in RM on the
 * wire ("元" in Chinese texts).
 */

/** API.md: 0 not invoiced, 1 in progress, 2 generated, 3 rejected, 4 cancelled. */
export const InvoiceStatus = {
  NotInvoiced: 0,
  InProgress: 1,
  Generated: 2,
  Rejected: 3,
  Cancelled: 4,
} as const;
export type InvoiceStatus = (typeof InvoiceStatus)[keyof typeof InvoiceStatus];

export const InvoiceTypes = ['electronic', 'paper'] as const;
export type InvoiceType = (typeof InvoiceTypes)[number];

/** Spec section 9: "Minimum invoice amount RM200", in sen. */
export const MIN_INVOICE_SEN = 20_000;

const Id = z.coerce.string().regex(/^[1-9]\d{0,15}$/, { error: 'rule.id' });
const optionalText = (max: number) => z.string().trim().max(max).optional();

export const ApplyInvoiceRequest = z
  .object({
    orderIds: z.array(Id, { error: 'rule.invoiceOrders' }).min(1, { error: 'rule.invoiceOrders' }).max(500),
    type: z.enum(InvoiceTypes, { error: 'rule.invoiceType' }),
    title: z.string({ error: 'rule.required' }).trim().min(1, { error: 'rule.required' }).max(100),
    taxpayerId: optionalText(50),
    bank: optionalText(100),
    account: optionalText(50),
    companyAddress: optionalText(200),
    companyPhone: optionalText(30),
    mailingAddress: optionalText(200),
    postcode: optionalText(20),
    recipient: optionalText(50),
    contact: optionalText(30),
    email: z
      .email({ error: 'rule.invoiceEmail' })
      .max(100)
      .optional()
      .or(z.literal('').transform(() => undefined)),
    proofImage: StoredUploadPath.optional(),
  })
  // An electronic invoice is e-mailed; a paper one is posted.
  .refine((r) => r.type !== 'electronic' || !!r.email, { error: 'rule.invoiceEmail', path: ['email'] })
  .refine((r) => r.type !== 'paper' || (!!r.mailingAddress && !!r.recipient && !!r.contact), {
    error: 'rule.invoiceMailing',
    path: ['mailingAddress'],
  });
export type ApplyInvoiceRequest = z.infer<typeof ApplyInvoiceRequest>;

export const PageInvoicesRequest = z.object({
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
  status: z.coerce.number().int().min(1).max(4).optional(),
  /** orgApplicationForInvoice: the applications of one department and those below it. */
  departmentId: Id.optional(),
});
export type PageInvoicesRequest = z.infer<typeof PageInvoicesRequest>;

export const InvoiceIdRequest = z.object({ id: Id });
export type InvoiceIdRequest = z.infer<typeof InvoiceIdRequest>;

/** Operator: issue an application by the invoice PDF uploaded through `/api/file/upload`. */
export const IssueInvoiceRequest = z.object({ id: Id, pdfFile: StoredUploadPath });
export type IssueInvoiceRequest = z.infer<typeof IssueInvoiceRequest>;

export const OperatorPageInvoicesRequest = PageInvoicesRequest.omit({ departmentId: true }).extend({
  companyName: z.string().trim().max(100).optional(),
});
export type OperatorPageInvoicesRequest = z.infer<typeof OperatorPageInvoicesRequest>;

export interface InvoiceOrderView {
  id: string;
  orderNo: string;
  kind: string;
  amount: number;
  /** The late fee paid with the order (RM); the invoice's amount includes it. */
  lateFee: number;
}

export interface InvoiceView {
  id: string;
  status: InvoiceStatus;
  type: InvoiceType;
  title: string;
  amount: number;
  currency: 'RM';
  taxpayerId: string;
  bank: string;
  account: string;
  companyAddress: string;
  companyPhone: string;
  mailingAddress: string;
  postcode: string;
  recipient: string;
  contact: string;
  email: string;
  proofImage: string | null;
  rejectReason: string | null;
  /** Whether the issued PDF can be downloaded (`/api/invoice/downloadInvoice`). */
  hasPdf: boolean;
  applicantName: string;
  departmentName: string;
  createTime: number;
  decideTime: number | null;
  orders: InvoiceOrderView[];
}

export interface OperatorInvoiceView extends InvoiceView {
  companyId: string;
  companyName: string;
  /** The operator sees the stored PDF's path directly. */
  pdfFile: string | null;
}

/** `/api/invoice/invoiceableOrders`: paid orders not on a live application. */
export interface InvoiceableOrderView {
  id: string;
  orderNo: string;
  kind: string;
  amount: number;
  /** The late fee paid with the order (RM); an invoice covers amount plus late fee. */
  lateFee: number;
  createTime: number;
}

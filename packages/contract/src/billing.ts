import { z } from 'zod';
import type { VersionTier } from './enums';
import { MAX_INSTANT_MS } from './rules';

/*
 * Device service renewal and data recovery orders (spec sections 3, 4, 5, 9). Amounts are in RM
 * on the wire; the console names the currency "RM" in English and "元" in Chinese.
 */

const Id = z.coerce.string().regex(/^[1-9]\d{0,15}$/, { error: 'rule.id' });
/** Spec section 8: "Select at least one device, time period or record". */
const DeviceIds = z
  .array(Id, { error: 'rule.selectDevices' })
  .min(1, { error: 'rule.selectDevices' })
  .max(500);

/** `/api/device/monitoringDevicePay`: renew service for whole months (spec section 5: an integer). */
export const MonitoringDevicePayRequest = z.object({
  deviceIds: DeviceIds,
  months: z.coerce
    .number({ error: 'rule.renewalMonths' })
    .int({ error: 'rule.renewalMonths' })
    .min(1, { error: 'rule.renewalMonths' })
    .max(120, { error: 'rule.renewalMonthsMax' }),
});
export type MonitoringDevicePayRequest = z.infer<typeof MonitoringDevicePayRequest>;

/** `/api/device/monitoringDeviceRecovery`: recover a past period, priced per 30-day month. */
export const MonitoringDeviceRecoveryRequest = z
  .object({
    deviceIds: DeviceIds,
    startTime: z.coerce
      .number({ error: 'rule.selectDevices' })
      .int()
      .positive()
      .max(MAX_INSTANT_MS, { error: 'rule.instant' }),
    endTime: z.coerce
      .number({ error: 'rule.selectDevices' })
      .int()
      .positive()
      .max(MAX_INSTANT_MS, { error: 'rule.instant' }),
  })
  .refine((r) => r.endTime > r.startTime, { error: 'rule.timeRange', path: ['endTime'] });
export type MonitoringDeviceRecoveryRequest = z.infer<typeof MonitoringDeviceRecoveryRequest>;

/** Spec section 4: order status. */
export const OrderStatus = { Pending: 1, Approved: 2, Rejected: 3, Cancelled: 4 } as const;
export type OrderStatus = (typeof OrderStatus)[keyof typeof OrderStatus];

/** `credits`: message credits bought, credited to the ledger once paid (issue 17, payments.ts). */
export const OrderKinds = ['renewal', 'recovery', 'credits'] as const;
export type OrderKind = (typeof OrderKinds)[number];

export const PageOrdersRequest = z.object({
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
  status: z.coerce.number().int().min(1).max(4).optional(),
  kind: z.enum(OrderKinds).optional(),
});
export type PageOrdersRequest = z.infer<typeof PageOrdersRequest>;

export const OrderIdRequest = z.object({ id: Id });
export type OrderIdRequest = z.infer<typeof OrderIdRequest>;

/** One line of an order: a device, its tier and what it costs. */
export interface OrderLineView {
  deviceId: string;
  serial: string;
  name: string;
  version: string;
  unitPrice: number;
  amount: number;
}

/** A top-up order (spec section 3: type, order number, time, person, amount, payment method, invoice status). */
export interface OrderView {
  id: string;
  orderNo: string;
  kind: OrderKind;
  status: OrderStatus;
  /** Renewal: months bought; recovery: 30-day months charged. */
  months: number;
  startTime: number | null;
  endTime: number | null;
  amount: number;
  currency: 'RM';
  /**
   * How it is (being) paid: `approval` until the company chooses, `transfer` (bank transfer with a
   * proof image the operator approves) or `online` (checkout); docs/decisions.md.
   */
  paymentMethod: PaymentMethod;
  /** InvoiceStatus of the order's live application; 0 not invoiced (invoices.ts). */
  invoiceStatus: number;
  /** Proof image of a bank transfer (a `/files/...` path), null before one is sent. */
  proofImage?: string | null;
  /** Credit top-up: message credits bought. */
  credits?: number | null;
  /** `YYYY-MM-DD` (UTC) when payment is due; null when the order has no due date. */
  dueDate?: string | null;
  /** Late fee in RM owed today on an unpaid order past its due date (spec section 9), else 0. */
  lateFee?: number;
  /** Why the operator rejected it. */
  rejectReason?: string | null;
  createdBy: string | null;
  createdByName: string;
  createTime: number;
  decideTime: number | null;
  lines: OrderLineView[];
}

/** `/api/order/priceList`: price per device per month by tier, in RM. */
export interface PriceListView {
  currency: 'RM';
  renewal: Record<VersionTier, number>;
  recovery: Record<VersionTier, number>;
  /** Days in one recovery month (spec section 9). */
  recoveryMonthDays: number;
}

/** 30-day months a recovery period is charged for: part months count whole (spec section 9). */
export function recoveryMonths(startTime: number, endTime: number): number {
  const monthMs = 30 * 86_400_000;
  return Math.max(1, Math.ceil((endTime - startTime) / monthMs));
}

export const PaymentMethods = ['approval', 'transfer', 'online'] as const;
export type PaymentMethod = (typeof PaymentMethods)[number];

/** What one message credit costs, in sen (docs/decisions.md, "Payments and invoices"). */
export const CREDIT_UNIT_PRICE_SEN = 10;

/** `/api/order/buyCredits`: a credit top-up order, whole credits. */
export const BuyCreditsRequest = z.object({
  credits: z.coerce
    .number({ error: 'rule.credits' })
    .int({ error: 'rule.credits' })
    .min(100, { error: 'rule.credits' })
    .max(1_000_000, { error: 'rule.credits' }),
});
export type BuyCreditsRequest = z.infer<typeof BuyCreditsRequest>;

/** `/api/order/pageServiceList`: every order of the company (serviceList). */
export const PageServiceListRequest = PageOrdersRequest.extend({
  invoiceStatus: z.coerce.number().int().min(0).max(4).optional(),
});
export type PageServiceListRequest = z.infer<typeof PageServiceListRequest>;

/** An uploaded image (`/api/file/upload`, purpose `invoice`): its `/files/...` path. */
export const StoredUploadPath = z
  .string({ error: 'rule.proofImage' })
  .trim()
  .regex(/^\/files\/[a-f0-9]{32}\.(jpg|png|gif|webp|pdf)$/, { error: 'rule.proofImage' });

/** `/api/order/payByTransfer`: the proof image of a bank transfer, for the operator to approve. */
export const PayByTransferRequest = z.object({ id: Id, proofImage: StoredUploadPath });
export type PayByTransferRequest = z.infer<typeof PayByTransferRequest>;

/** `/api/order/payOnline`: opens a checkout; the console sends the browser to `url`. */
export const PayOnlineRequest = z.object({ id: Id });
export type PayOnlineRequest = z.infer<typeof PayOnlineRequest>;
export interface PayOnlineView {
  url: string;
}

/** `/api/order/paymentOptions`: online payment only when the server has a payment provider. */
export interface PaymentOptionsView {
  online: boolean;
  /** The supplier's bank account for transfers, as configured (may be empty). */
  transferDetails: string;
  creditUnitPrice: number;
  currency: 'RM';
}

/** Operator: reject an order or an invoice application, with the reason the company reads. */
export const RejectWithReasonRequest = z.object({
  id: Id,
  reason: z.string({ error: 'rule.rejectReason' }).trim().min(1, { error: 'rule.rejectReason' }).max(200),
});
export type RejectWithReasonRequest = z.infer<typeof RejectWithReasonRequest>;

/**
 * `/api/operator/order/setDueDate`: the day a pending order must be paid by (UTC, `YYYY-MM-DD`),
 * after which it carries a late fee; null takes the due date away.
 */
export const SetDueDateRequest = z.object({
  id: Id,
  dueDate: z
    .string({ error: 'rule.dueDate' })
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'rule.dueDate' })
    .refine(
      (d) =>
        !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
      {
        error: 'rule.dueDate',
      },
    )
    .nullable(),
});
export type SetDueDateRequest = z.infer<typeof SetDueDateRequest>;

/** `/api/operator/order/pageOrders`: every company's orders. */
export const OperatorPageOrdersRequest = PageOrdersRequest.extend({
  companyName: z.string().trim().max(100).optional(),
});
export type OperatorPageOrdersRequest = z.infer<typeof OperatorPageOrdersRequest>;

export interface OperatorOrderView extends OrderView {
  companyId: string;
  companyName: string;
}

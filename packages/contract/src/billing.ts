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

export const OrderKinds = ['renewal', 'recovery'] as const;
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
  /** Always "operator approval": there is no payment gateway (docs/decisions.md). */
  paymentMethod: 'approval';
  /** 0 not invoiced; invoices are a separate area. */
  invoiceStatus: number;
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

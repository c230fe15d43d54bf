import { OrderStatus, type OrderView } from '@coldchain/contract';
import { formatTime } from '../../devices/format';

/** Shared by the company's and the operator's order lists. */
export const ORDER_STATUS_COLORS: Record<number, string> = {
  [OrderStatus.Pending]: 'gold',
  [OrderStatus.Approved]: 'green',
  [OrderStatus.Rejected]: 'red',
  [OrderStatus.Cancelled]: 'default',
};

/** What an order buys, in one line. */
export function describeOrder(
  t: (key: string, options?: Record<string, unknown>) => string,
  o: OrderView,
): string {
  if (o.kind === 'credits') return t('invoices.orders.creditsWhat', { count: o.credits ?? 0 });
  if (o.kind === 'renewal')
    return t('billing.orders.renewalWhat', { count: o.lines.length, months: o.months });
  return t('billing.orders.recoveryWhat', {
    count: o.lines.length,
    start: formatTime(o.startTime),
    end: formatTime(o.endTime),
  });
}

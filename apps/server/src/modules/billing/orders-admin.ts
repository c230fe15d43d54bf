import { OrderStatus } from '@coldchain/contract';
import type { Db } from '../../db/client';
import { approveOrder, listOrders, OrderDecisionError, rejectOrder } from './order-decisions';

export const ORDERS_USAGE = `npm run admin -- orders list [pending|all]
  npm run admin -- orders approve <id>
  npm run admin -- orders reject <id>
                     lists renewal and data recovery orders, or approves one (renewal: extends each
                     device's expiry by the months) or rejects one. Only a pending order can be decided.`;

const STATUS_NAMES: Record<number, string> = {
  [OrderStatus.Pending]: 'pending',
  [OrderStatus.Approved]: 'approved',
  [OrderStatus.Rejected]: 'rejected',
  [OrderStatus.Cancelled]: 'cancelled',
};

/** True when `orders` arguments are complete enough to open the database. */
export function isOrdersCommand(argv: string[]): boolean {
  const [area, action, arg] = argv;
  if (area !== 'orders') return false;
  if (action === 'list') return arg === undefined || arg === 'pending' || arg === 'all';
  return (action === 'approve' || action === 'reject') && /^[1-9]\d{0,15}$/.test(arg ?? '');
}

/** Runs an `orders` command; prints to the given sinks and answers the exit code. */
export async function runOrdersCommand(
  db: Db,
  argv: string[],
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  const [, action, arg] = argv;
  if (action === 'list') {
    const rows = await listOrders(db, arg === 'all' ? undefined : OrderStatus.Pending);
    if (rows.length === 0) out('No orders.');
    for (const o of rows) {
      const what =
        o.kind === 'renewal'
          ? `renewal ${o.months} month(s)`
          : `recovery ${new Date(o.startTime!).toISOString()}..${new Date(o.endTime!).toISOString()} (${o.months} x 30 days)`;
      out(
        `${o.id}\t${o.orderNo}\tcompany ${o.companyId}\t${STATUS_NAMES[o.status]}\t${what}\t${o.lines.length} device(s)\tRM ${o.amount.toFixed(2)}`,
      );
    }
    return 0;
  }
  try {
    const order =
      action === 'approve' ? await approveOrder(db, Number(arg)) : await rejectOrder(db, Number(arg));
    out(`Order ${order.id} (${order.orderNo}) ${STATUS_NAMES[order.status]}.`);
    return 0;
  } catch (error) {
    if (error instanceof OrderDecisionError) {
      err(error.message);
      return 1;
    }
    throw error;
  }
}

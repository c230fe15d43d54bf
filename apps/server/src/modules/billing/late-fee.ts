/*
 * Late fees (spec section 9: "5 ten-thousandths of unpaid fees per day"; issue 17 item 3).
 *
 * The rule (docs/decisions.md, "Late fees"):
 * - Interest starts the day after the due date. Days are calendar days in UTC (companies have no
 *   time zone of their own; order numbers use UTC days too): an amount due on 10 January is one
 *   day late on 11 January, whatever the hour, and not late at all on 10 January.
 * - Simple interest on the unpaid principal: "of unpaid fees" names the fees, not fees plus
 *   interest, so interest never earns interest. fee = principal x 5 x days / 10 000.
 * - Exact: integer cents (sen) as bigint, no floating point; the one division happens at the end
 *   and is rounded half up to the cent (0.5 sen and more up), once, never per day.
 */

/** 5 / 10 000 per day. */
export const LATE_FEE_RATE = { numerator: 5n, denominator: 10_000n } as const;

const DAY_MS = 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The UTC calendar day of `YYYY-MM-DD` as a day number (days since 1970-01-01). */
function dayNumber(date: string): number {
  const match = DATE.exec(date);
  if (!match) throw new RangeError(`Not a date (YYYY-MM-DD): ${date}`);
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const ms = Date.UTC(y, m - 1, d);
  // Date.UTC rolls 31 February over into March: such a date is refused, not moved.
  if (new Date(ms).getUTCDate() !== d || new Date(ms).getUTCMonth() !== m - 1) {
    throw new RangeError(`Not a date (YYYY-MM-DD): ${date}`);
  }
  return ms / DAY_MS;
}

/** The UTC calendar day (`YYYY-MM-DD`) an instant falls on. */
export function utcDay(epochMs: number): string {
  return new Date(Math.floor(epochMs / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
}

/** Whole days late on `asOf`: 0 on or before the due date, 1 on the day after it. */
export function daysOverdue(dueDate: string, asOf: string): number {
  return Math.max(0, dayNumber(asOf) - dayNumber(dueDate));
}

/** `numerator / denominator` rounded half up, both non-negative. */
function divideHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (numerator * 2n + denominator) / (denominator * 2n);
}

/** The late fee in cents of `principalCents` unpaid for `days` days. */
export function lateFeeCents(principalCents: bigint | number, days: number): bigint {
  const principal = BigInt(principalCents);
  if (principal < 0n) throw new RangeError('The unpaid amount cannot be negative');
  if (!Number.isSafeInteger(days) || days < 0)
    throw new RangeError('Days late must be a whole number, 0 or more');
  return divideHalfUp(principal * LATE_FEE_RATE.numerator * BigInt(days), LATE_FEE_RATE.denominator);
}

export interface LateFee {
  daysOverdue: number;
  lateFeeCents: bigint;
  /** What is owed now: the principal and the late fee. */
  totalCents: bigint;
}

/** The late fee of an amount due on `dueDate` and still unpaid on `asOf` (both `YYYY-MM-DD`, UTC). */
export function lateFeeOn(principalCents: bigint | number, dueDate: string, asOf: string): LateFee {
  const days = daysOverdue(dueDate, asOf);
  const fee = lateFeeCents(principalCents, days);
  return { daysOverdue: days, lateFeeCents: fee, totalCents: BigInt(principalCents) + fee };
}

/**
 * The instants the platform accepts from a device, judged against the server's clock: not more
 * than `maxAheadMs` ahead (a device clock a little fast is normal; a reading dated next year is a
 * broken clock and would hold the sensor's current value for a year), and not older than
 * `backfillMs` (how far back a logger may upload what it buffered; 1970 is a clock that was never
 * set). Everything else is refused with a reason the device can log.
 */
export interface ReadingWindow {
  maxAheadMs: number;
  backfillMs: number;
}

export const DEFAULT_READING_WINDOW: ReadingWindow = {
  maxAheadMs: 300_000,
  backfillMs: 90 * 86_400_000,
};

/** Why `ts` is outside the window at `now`, or null when it is inside. */
export function instantRefusal(ts: number, now: number, window: ReadingWindow): string | null {
  if (ts > now + window.maxAheadMs) {
    return `${describeInstant(ts)} is more than ${Math.round(window.maxAheadMs / 1000)} s ahead of the server clock (${new Date(now).toISOString()}); check the device clock`;
  }
  if (ts < now - window.backfillMs) {
    return `${describeInstant(ts)} is older than the back-fill horizon of ${Math.round(window.backfillMs / 86_400_000)} days; check the device clock`;
  }
  return null;
}

/** ISO text where JavaScript can represent the instant, the bare number where it cannot. */
function describeInstant(ts: number): string {
  const date = new Date(ts);
  return Number.isNaN(date.getTime()) ? String(ts) : date.toISOString();
}

/** A record the window refused: its index in the message and the reason, with the field path. */
export interface RefusedRecord {
  index: number;
  error: string;
}

/** Splits a message's records into those inside the window and those refused. */
export function splitByWindow<T extends { ts: number }>(
  records: T[],
  now: number,
  window: ReadingWindow,
): { accepted: T[]; refused: RefusedRecord[] } {
  const accepted: T[] = [];
  const refused: RefusedRecord[] = [];
  records.forEach((record, index) => {
    const reason = instantRefusal(record.ts, now, window);
    if (reason) refused.push({ index, error: `records.${index}.ts: ${reason}` });
    else accepted.push(record);
  });
  return { accepted, refused };
}

/** A zone's offset is looked up once per this many milliseconds of UTC time (see below). */
const BUCKET_MS = 15 * 60_000;

/**
 * `YYYY-MM-DD HH:mm:ss` in one IANA zone, as the console and every export write instants. One
 * formatter per report: building an `Intl.DateTimeFormat` per cell cost 0.6 s for a year's
 * hourly table, and even one shared formatter spends 0.4 s on the 288 000 cells of a month of
 * 100 sensors. So Intl is asked for the zone's offset once per 15 minutes of UTC time (zones
 * change offset on a quarter hour; a bucket whose two ends disagree is formatted by Intl cell by
 * cell) and the text is built from the shifted UTC fields.
 */
export function instantFormatter(timeZone: string): (epochMs: number) => string {
  // sv-SE writes year-month-day hour:minute:second, the order the spec asks for.
  const format = new Intl.DateTimeFormat('sv-SE', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  const offsetAt = (epochMs: number): number => {
    const text = format.format(new Date(epochMs));
    const [date, time] = text.split(' ');
    const [y, mo, d] = date!.split('-').map(Number);
    const [h, mi, s] = time!.split(':').map(Number);
    const whole = Math.floor(epochMs / 1000) * 1000;
    return Date.UTC(y!, mo! - 1, d!, h!, mi!, s!) - whole;
  };
  // bucket -> offset, or null where the offset changes inside the bucket.
  const offsets = new Map<number, number | null>();
  return (epochMs) => {
    const bucket = Math.floor(epochMs / BUCKET_MS);
    let offset = offsets.get(bucket);
    if (offset === undefined) {
      const start = offsetAt(bucket * BUCKET_MS);
      offset = start === offsetAt(bucket * BUCKET_MS + BUCKET_MS - 1) ? start : null;
      offsets.set(bucket, offset);
    }
    if (offset === null) return format.format(new Date(epochMs));
    return utcText(epochMs + offset);
  };
}

const pad = (n: number) => (n < 10 ? `0${n}` : String(n));

/** The UTC fields of an instant as `YYYY-MM-DD HH:mm:ss` (years 1000-9999, as stored readings are). */
function utcText(epochMs: number): string {
  const at = new Date(epochMs);
  return (
    `${at.getUTCFullYear()}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())} ` +
    `${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}:${pad(at.getUTCSeconds())}`
  );
}

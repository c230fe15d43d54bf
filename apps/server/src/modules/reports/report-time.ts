/**
 * `YYYY-MM-DD HH:mm:ss` in one IANA zone, as the console and every export write instants. One
 * formatter per report: building an `Intl.DateTimeFormat` per cell cost 0.6 s for a year's
 * hourly table.
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
  return (epochMs) => format.format(new Date(epochMs));
}

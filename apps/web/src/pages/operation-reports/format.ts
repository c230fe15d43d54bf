/** `YYYY-MM-DD HH:mm` of an instant in an IANA zone: a report's times are in its task's zone. */
export function formatInstant(epochMs: number, timeZone: string, seconds = false): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(epochMs))
      .map((p) => [p.type, p.value]),
  );
  const text = `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
  return seconds ? `${text}:${parts.second}` : text;
}

/** A period as "2026-06-09 00:00 – 2026-06-10 00:00". */
export function formatPeriod(start: number, end: number, timeZone: string): string {
  return `${formatInstant(start, timeZone)} – ${formatInstant(end, timeZone)}`;
}

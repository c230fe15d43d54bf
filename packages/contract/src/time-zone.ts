/**
 * Zones already checked. Building an `Intl.DateTimeFormat` to test a name costs tens of
 * microseconds, and every request that carries a zone (a rule's periods, a report, an export) was
 * checked that way at each call: a few per cent of the server's main thread under a load of rule
 * saves. The names in use are few (the IANA database has about 600), so their answers are kept;
 * the bound stops a client sending endless made-up names from growing the map.
 */
const checked = new Map<string, boolean>();
const MAX_CHECKED = 1_000;

/** Whether `zone` names a time zone this runtime knows (an IANA name such as Asia/Shanghai, or UTC). */
export function isTimeZone(zone: string): boolean {
  const known = checked.get(zone);
  if (known !== undefined) return known;
  let valid: boolean;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    valid = true;
  } catch {
    valid = false;
  }
  if (checked.size < MAX_CHECKED) checked.set(zone, valid);
  return valid;
}

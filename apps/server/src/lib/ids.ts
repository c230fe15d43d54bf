/** Ids are numbers in the database and strings in JSON (API.md). */
export function idToWire(id: number | bigint): string {
  return String(id);
}

/** Parses a wire id; anything that is not a positive integer gives null, which callers treat as "not found". */
export function idFromWire(id: string | number | undefined | null): number | null {
  if (id === undefined || id === null) return null;
  const text = String(id).trim();
  if (!/^[1-9]\d{0,15}$/.test(text)) return null;
  return Number(text);
}

import { createHash } from 'node:crypto';

/** The fields an entry's hash covers, in a fixed order. */
export interface ChainedFields {
  companyId: number;
  seq: number;
  userId: number | null;
  action: string;
  targetType: string;
  targetId: string;
  before: unknown;
  after: unknown;
  reason: string;
  ip: string;
  createdAt: number;
}

/** JSON with object keys sorted at every level, so the same entry always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (typeof value === 'object')
    return `{${canonicalMembers(value as Record<string, unknown>)
      .map(([, member]) => member)
      .join(',')}}`;
  return JSON.stringify(value);
}

/** An object's members as canonicalJson writes them (`"key":value`), keys sorted, undefined left out. */
function canonicalMembers(value: Record<string, unknown>): [key: string, member: string][] {
  return Object.entries(value)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => [k, `${JSON.stringify(k)}:${canonicalJson(v)}`]);
}

/**
 * The canonical JSON of an object cut around some of its members' values: with `keys` in sorted
 * order, `pieces[0] + v0 + pieces[1] + v1 + ... + pieces[n]` is exactly `canonicalJson({ ...fields,
 * [k0]: v0, [k1]: v1, ... })` when each `vi` is the canonical JSON of its value. The entry's `seq`
 * is the one field the database assigns (the company's last link plus one), and a change made
 * in one statement may take its `before` from the row it changes, so the database can hash the
 * entry in the statement that appends it.
 */
export function canonicalCut(fields: Record<string, unknown>, keys: readonly string[]): string[] {
  const cut = new Set(keys);
  const members = canonicalMembers({ ...fields, ...Object.fromEntries(keys.map((key) => [key, 0])) });
  const pieces: string[] = [];
  let piece = '{';
  members.forEach(([key, member], i) => {
    const separator = i === 0 ? '' : ',';
    if (cut.has(key)) {
      pieces.push(`${piece}${separator}${JSON.stringify(key)}:`);
      piece = '';
    } else piece += `${separator}${member}`;
  });
  pieces.push(`${piece}}`);
  return pieces;
}

/** `canonicalCut` around one key: `prefix + n + suffix` is `canonicalJson({ ...fields, [key]: n })`. */
export function canonicalAround(
  fields: Record<string, unknown>,
  key: string,
): { prefix: string; suffix: string } {
  const [prefix, suffix] = canonicalCut(fields, [key]);
  return { prefix: prefix!, suffix: suffix! };
}

export const GENESIS_HASH = '0'.repeat(64);

export function entryHash(prevHash: string, fields: ChainedFields): string {
  return createHash('sha256').update(prevHash).update(canonicalJson(fields)).digest('hex');
}

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
 * The canonical JSON of an object cut around one numeric member: `prefix + n + suffix` is exactly
 * `canonicalJson({ ...fields, [key]: n })` for an integer n. The entry's `seq` is the one field
 * the database assigns (the company's last link plus one), so the database can hash the entry in
 * the statement that appends it.
 */
export function canonicalAround(
  fields: Record<string, unknown>,
  key: string,
): { prefix: string; suffix: string } {
  const members = canonicalMembers({ ...fields, [key]: 0 });
  const at = members.findIndex(([k]) => k === key);
  const before = members.slice(0, at).map(([, member]) => `${member},`);
  const after = members.slice(at + 1).map(([, member]) => `,${member}`);
  return { prefix: `{${before.join('')}${JSON.stringify(key)}:`, suffix: `${after.join('')}}` };
}

export const GENESIS_HASH = '0'.repeat(64);

export function entryHash(prevHash: string, fields: ChainedFields): string {
  return createHash('sha256').update(prevHash).update(canonicalJson(fields)).digest('hex');
}

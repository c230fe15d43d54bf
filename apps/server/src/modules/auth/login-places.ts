import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { knownLoginPlaces } from './login-security.table';

/** Where a login comes from: the console's device id (or the user agent) and the IP address. */
export interface LoginPlace {
  device: string;
  ip: string;
}

export function loginPlace(
  deviceId: string | undefined,
  userAgent: string | undefined,
  ip: string,
): LoginPlace {
  const source = deviceId ? `id:${deviceId}` : `ua:${userAgent ?? ''}`;
  return { device: createHash('sha256').update(source).digest('hex'), ip };
}

/**
 * 'first' when the person never logged in anywhere (the account was just proven by its
 * registration code), 'known' when device and IP were both seen before, else 'new'.
 */
export async function placeStatus(
  db: Db,
  userId: number,
  place: LoginPlace,
): Promise<'first' | 'known' | 'new'> {
  const rows = await db
    .select({ kind: knownLoginPlaces.kind, value: knownLoginPlaces.value })
    .from(knownLoginPlaces)
    .where(eq(knownLoginPlaces.userId, userId));
  if (rows.length === 0) return 'first';
  const seen = (kind: string, value: string) => rows.some((r) => r.kind === kind && r.value === value);
  return seen('device', place.device) && seen('ip', place.ip) ? 'known' : 'new';
}

export async function rememberPlace(db: Db, userId: number, place: LoginPlace): Promise<void> {
  await db
    .insert(knownLoginPlaces)
    .values([
      { userId, kind: 'device', value: place.device },
      { userId, kind: 'ip', value: place.ip },
    ])
    .onConflictDoUpdate({
      target: [knownLoginPlaces.userId, knownLoginPlaces.kind, knownLoginPlaces.value],
      set: { lastSeenAt: sql`now()` },
    });
}

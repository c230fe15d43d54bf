import { toWireLanguage, type WireLanguage } from '@coldchain/contract';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from './users.table';

/** The language a header names, or null when the call did not send one (nothing to remember). */
export function headerLanguage(value: string | undefined): WireLanguage | null {
  if (value === undefined || value.trim() === '') return null;
  return toWireLanguage(value);
}

/**
 * Keeps the user's stored language (the language of their alarm e-mails, SMS and calls) in step
 * with the `language` header of their calls. The caller passes the value it already loaded with
 * the session, so a call costs a comparison; the database is written only when the language changes.
 */
export async function rememberLanguage(
  db: Db,
  userId: number,
  stored: WireLanguage,
  header: string | undefined,
): Promise<void> {
  const wanted = headerLanguage(header);
  if (wanted === null || wanted === stored) return;
  await db.update(users).set({ language: wanted }).where(eq(users.id, userId));
}

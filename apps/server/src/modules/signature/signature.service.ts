import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db, Queryable } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { verifyPassword } from '../../lib/password';
import { companies, companyMembers } from '../companies/companies.table';
import { users } from '../users/users.table';
import { guardSecret } from './signature-throttle';

/**
 * The one signature step of every signed action (docs/decisions.md "One signature step"). It
 * lives outside the areas that sign (alarms, devices, audit, later patrols and reports) so that
 * each can use it without importing the others.
 */

/** Who signs: the caller, in the company whose policy applies (null: none, so nothing is asked). */
export interface Signer {
  userId: number;
  companyId: number | null;
  ip: string;
}

/** The caller of a request as a signer, in the company in scope. */
export function signerOf(request: FastifyRequest): Signer {
  return { userId: request.auth.userId, companyId: request.auth.companyId, ip: request.ip ?? '' };
}

/**
 * What a signature means, written with the action's audit entry (21 CFR 11.50: the signer's name,
 * the time and the meaning of the signature go with the signed record).
 */
export type SignatureMeaning = 'alarmResolution' | 'dataExport';

export interface Signature {
  meaning: SignatureMeaning;
  signedBy: string;
  signedAt: number;
}

export interface SignerState {
  name: string;
  signPasswordHash: string | null;
  /** The company's audit signature switch. */
  signCheck: boolean;
  /** The member's export flag (true when no company is in scope: one's own history only). */
  exportExcel: boolean;
  signLockedUntil: Date | null;
}

/** The caller, the company's policy and their membership's export flag, in one statement. */
export async function loadSigner(db: Queryable, who: Signer): Promise<SignerState> {
  const [row] = await db
    .select({
      name: users.name,
      signPasswordHash: users.signPasswordHash,
      signLockedUntil: users.signLockedUntil,
      signCheck: companies.signCheck,
      exportExcel: companyMembers.exportExcel,
    })
    .from(users)
    .leftJoin(
      companyMembers,
      and(eq(companyMembers.userId, users.id), eq(companyMembers.companyId, who.companyId ?? -1)),
    )
    .leftJoin(companies, eq(companies.id, companyMembers.companyId))
    .where(eq(users.id, who.userId))
    .limit(1);
  if (!row) throw new AppError('LOGIN_EXPIRED');
  return { ...row, signCheck: row.signCheck ?? false, exportExcel: row.exportExcel ?? true };
}

/**
 * Checks a signature password against the signer's, through the lockout: "not set" closes the
 * feature (spec section 8), a wrong one counts towards the lock.
 */
export async function verifySignature(
  db: Db,
  who: Signer,
  state: SignerState,
  password: string | undefined,
): Promise<void> {
  const hash = state.signPasswordHash;
  if (hash === null) throw new AppError('SIGN_PASSWORD_NOT_SET');
  if (!password) throw new AppError('SIGN_PASSWORD_REQUIRED');
  await guardSecret(db, who, state, () => verifyPassword(password, hash), 'SIGN_PASSWORD_WRONG');
}

async function sign(
  db: Db,
  who: Signer,
  state: SignerState,
  password: string | undefined,
  meaning: SignatureMeaning,
): Promise<Signature | null> {
  // With the company's audit signature off nothing is asked, and a sent password is ignored.
  if (!state.signCheck) return null;
  await verifySignature(db, who, state, password);
  return { meaning, signedBy: state.name, signedAt: Date.now() };
}

/**
 * A signed action other than an export (resolving an alarm, a patrol): asks for the signature
 * password while the company's audit signature is on. Call it before reading anything the action
 * touches, so a wrong password tells nothing about the record. The `signature` goes into the
 * action's audit entry; null when unsigned. `signerName` (read anyway) is for an answer that shows
 * who acted. Takes the database, not a transaction, so a wrong guess is counted although the
 * action then fails.
 */
export async function requireSignature(
  db: Db,
  who: Signer,
  password: string | undefined,
  meaning: SignatureMeaning,
): Promise<{ signature: Signature | null; signerName: string }> {
  const state = await loadSigner(db, who);
  return { signature: await sign(db, who, state, password, meaning), signerName: state.name };
}

/**
 * Every export: the member's export flag first (spec section 6, set by the company
 * administrator), then the signature while audit signature is on (section 5, "export only when
 * audit signature is on").
 */
export async function authorizeExport(
  db: Db,
  who: Signer,
  password: string | undefined,
): Promise<Signature | null> {
  const state = await loadSigner(db, who);
  if (!state.exportExcel) throw new AppError('EXPORT_NOT_ALLOWED');
  return sign(db, who, state, password, 'dataExport');
}

/** Whether the company in scope asks for signatures, for the session's `signCheck`. */
export async function companySignCheck(db: Queryable, companyId: number | null): Promise<boolean> {
  if (companyId === null) return false;
  const [row] = await db
    .select({ on: companies.signCheck })
    .from(companies)
    .where(eq(companies.id, companyId));
  return row?.on ?? false;
}

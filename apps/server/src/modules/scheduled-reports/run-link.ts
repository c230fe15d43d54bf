import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Signed download links of scheduled report e-mails (backup tasks, operation reports): a file too
 * large to attach is sent as a link outside /api, whose token is the right to that one run's file.
 */

/** How long the link in a report e-mail stays valid. */
export const REPORT_LINK_TTL_MS = 7 * 86_400_000;

/** A new key for one run's links, kept with the run; deleting the run revokes its links. */
export function newLinkKey(): string {
  return randomBytes(32).toString('hex');
}

function signature(key: string, runId: number, expires: number): string {
  return createHmac('sha256', key).update(`${runId}.${expires}`).digest('base64url');
}

/** `<runId>.<expires>.<signature>`: names the run and its expiry, signed with the run's key. */
export function signLinkToken(key: string, runId: number, expires: number): string {
  return `${runId}.${expires}.${signature(key, runId, expires)}`;
}

export function parseLinkToken(token: string): { runId: number; expires: number; sig: string } | null {
  const match = /^([1-9]\d{0,15})\.(\d{1,16})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  return { runId: Number(match[1]), expires: Number(match[2]), sig: match[3]! };
}

/** True when `sig` is the run's signature of `expires` and `expires` has not passed. */
export function linkValid(key: string, runId: number, expires: number, sig: string, now: number): boolean {
  if (expires <= now) return false;
  const expected = Buffer.from(signature(key, runId, expires));
  const given = Buffer.from(sig);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

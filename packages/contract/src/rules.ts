import { z } from 'zod';

/*
 * Rule violations carry an i18n key (`rule.<name>`) as their zod message; the server and the console
 * turn it into a sentence naming the field in the user's language.
 */

/**
 * Validation rules of spec section 5 and constants of section 9, defined once for the server's
 * request schemas and the console's forms.
 */
export const Limits = {
  passwordMin: 8,
  passwordMax: 20,
  mobileBreakpointPx: 992,
  sidebarWidthPx: 240,
  userNameCut: 10,
  userNameCutWhenLongerThan: 11,
  unreadBadgeCap: 99,
  errorToastSeconds: 5,
  rememberCookieDays: 7,
  searchDebounceMs: 200,
  companyLoopSwitchMs: 600_000,
  doubleClickGuardMs: 1_000,
} as const;

/** Letters and digits only, 8-20 characters. */
export const PASSWORD_PATTERN = /^[A-Za-z0-9]{8,20}$/;
/** What may stand in a part of an address's local part (RFC 5322 atext, letters of any script). */
const EMAIL_ATEXT = "[\\p{L}\\p{N}\\p{M}!#$%&'*+/=?^_`{|}~-]";
/** One domain label: letters and digits, inner hyphens, at most 63 characters. */
const EMAIL_LABEL = '[\\p{L}\\p{N}\\p{M}](?:[\\p{L}\\p{N}\\p{M}-]{0,61}[\\p{L}\\p{N}\\p{M}])?';
/**
 * An e-mail address: dot-separated atoms, `@`, and a domain of at least two labels ending in a
 * top-level domain of letters (or its punycode). Strict on purpose: no spaces, quotes, angle
 * brackets or other markup characters anywhere, so `a@b.c<script>` is not an address.
 */
export const EMAIL_PATTERN = new RegExp(
  `^${EMAIL_ATEXT}+(?:\\.${EMAIL_ATEXT}+)*@(?:${EMAIL_LABEL}\\.)+(?:[\\p{L}\\p{M}]{2,63}|xn--[A-Za-z0-9-]{1,59})$`,
  'u',
);
/** A mobile number, optionally with an international area code (+86 13800000000, 0060123456789). */
export const MOBILE_PATTERN = /^(\+|00)?[1-9]\d{6,14}$/;

export function isEmail(account: string): boolean {
  return EMAIL_PATTERN.test(account);
}

/**
 * The e-mail address a user gives (personal centre, completing registration); empty clears it.
 * The same rule as an e-mail account (`isEmail`).
 */
export const OptionalEmail = z
  .string()
  .trim()
  .max(100)
  .refine((v) => v === '' || isEmail(v), { error: 'rule.email' });

/**
 * The latest time a call may carry: 9999-12-31T23:59:59.999Z. JavaScript writes a later date with
 * a six-digit year (`+275760-09-13T00:00:00.000Z`) that PostgreSQL cannot read, so such a filter
 * failed the query with HTTP 500 (found by the API fuzz, issue 13): it is refused here instead.
 */
export const MAX_INSTANT_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
/** A time in epoch milliseconds, as the console's date pickers send it. */
export const EpochMs = z.coerce.number().int().nonnegative().max(MAX_INSTANT_MS, { error: 'rule.instant' });

export function isMobile(account: string): boolean {
  return MOBILE_PATTERN.test(account.replace(/[\s-]/g, ''));
}

export const Account = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .refine((v) => isEmail(v) || isMobile(v), { error: 'rule.account' });

/**
 * An account as signing in and recovery accept it: the strict rule above, or an e-mail address by
 * the looser rule accounts were registered under before (anything@anything.xx without spaces), so
 * that tightening the rule for new addresses locks no existing user out (docs/decisions.md).
 */
const REGISTERED_EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
export const ExistingAccount = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .refine((v) => REGISTERED_EMAIL_PATTERN.test(v) || isMobile(v), { error: 'rule.account' });

/** Whether an account that exists is an e-mail account (mobile numbers never hold `@`). */
export function isEmailAccount(account: string): boolean {
  return account.includes('@');
}

export const Password = z.string().regex(PASSWORD_PATTERN, { error: 'rule.password' });

/** Spec section 2: the user name is cut to 10 characters plus an ellipsis when longer than 11. */
export function cutUserName(name: string): string {
  const chars = Array.from(name);
  return chars.length > Limits.userNameCutWhenLongerThan
    ? `${chars.slice(0, Limits.userNameCut).join('')}...`
    : name;
}

/** Spec section 2: the unread badge shows `99+` when capped. */
export function formatUnreadCount(count: number): string {
  return count > Limits.unreadBadgeCap ? `${Limits.unreadBadgeCap}+` : String(count);
}

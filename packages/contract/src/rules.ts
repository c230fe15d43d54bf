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
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
/** A mobile number, optionally with an international area code (+86 13800000000, 0060123456789). */
export const MOBILE_PATTERN = /^(\+|00)?[1-9]\d{6,14}$/;

export function isEmail(account: string): boolean {
  return EMAIL_PATTERN.test(account);
}

export function isMobile(account: string): boolean {
  return MOBILE_PATTERN.test(account.replace(/[\s-]/g, ''));
}

export const Account = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .refine((v) => isEmail(v) || isMobile(v), { error: 'rule.account' });

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

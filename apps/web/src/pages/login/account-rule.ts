import { Account, VERIFICATION_CODE_PATTERN } from '@coldchain/contract';

/**
 * The server's rules for the login form's fields, loaded when the form first checks one: the
 * contract modules that define them build zod schemas of other screens, which the bundle that
 * paints /login does without (docs/performance.md, "Console weight").
 */
export function isAccount(value: string): boolean {
  return Account.safeParse(value).success;
}

export function isVerificationCode(value: string): boolean {
  return VERIFICATION_CODE_PATTERN.test(value);
}

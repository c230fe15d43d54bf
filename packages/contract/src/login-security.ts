import { z } from 'zod';
import { LoginType } from './enums';
import { Password } from './rules';

/**
 * Login security calls (docs/API.md "Login security"): backoff, abnormal-login codes, password
 * renewal, address codes and QR login.
 */

/** Spec section 9: with renewal on, a password older than this must be changed at login. */
export const PASSWORD_RENEWAL_DAYS = 90;
/** A QR login ticket is good for 2 minutes; the console polls every 2 seconds. */
export const QR_TICKET_TTL_MS = 120_000;
export const QR_POLL_INTERVAL_MS = 2_000;
/** An address code (kiosk / data-screen link) is good for 24 hours and one login. */
export const ADDRESS_CODE_TTL_HOURS = 24;
export const ADDRESS_CODE_PATTERN = /^[A-Z2-9]{10}$/;

/**
 * `/api/doLogin` answer when the password was right but the login is abnormal (new device or IP,
 * or after repeated failures): no token yet; a code was sent and the same call must be repeated
 * with `code`.
 */
export interface LoginNeedsCode {
  needCode: true;
  channel: 'email' | 'sms';
}

/** `/api/doLoginCode` (spec section 7): `account` is the address code, `type` 3. */
export const LoginCodeRequest = z.object({
  account: z
    .string()
    .trim()
    .transform((v) => v.toUpperCase())
    .pipe(z.string().regex(ADDRESS_CODE_PATTERN, { error: 'rule.addressCode' })),
  type: z.literal(LoginType.AddressCode).default(LoginType.AddressCode),
  platform: z.coerce.number().int().min(1).max(3).default(1),
});
export type LoginCodeRequest = z.infer<typeof LoginCodeRequest>;

export interface AddressCodeIssued {
  code: string;
  expireTime: number;
}

/** `/api/user/updatePassword`. The two new passwords must match ('Both Password Enter Not Match'). */
export const UpdatePasswordRequest = z
  .object({
    oldPassword: z.string().min(1).max(128),
    password: Password,
    confirmPassword: z.string(),
  })
  .refine((r) => r.password === r.confirmPassword, {
    error: 'rule.passwordsDiffer',
    path: ['confirmPassword'],
  });
export type UpdatePasswordRequest = z.infer<typeof UpdatePasswordRequest>;

export const QrTicketRequest = z.object({ ticket: z.string().trim().min(20).max(100) });
export type QrTicketRequest = z.infer<typeof QrTicketRequest>;

export interface QrTicket {
  ticket: string;
  expireTime: number;
}

export type QrTicketState = 'waiting' | 'scanned' | 'confirmed' | 'expired';

export interface QrPollResult {
  state: QrTicketState;
  /** Only in the one poll that follows the confirmation. */
  accessToken?: string;
  expireTime?: number;
}

export const PasswordRenewalRequest = z.object({ enabled: z.boolean() });
export type PasswordRenewalRequest = z.infer<typeof PasswordRenewalRequest>;

/** `/api/getInternationalAreaCode`: the area codes offered in front of a mobile number. */
export interface InternationalAreaCode {
  code: string;
  en: string;
  cn: string;
}

export const INTERNATIONAL_AREA_CODES: readonly InternationalAreaCode[] = [
  { code: '+60', en: 'Malaysia', cn: '马来西亚' },
  { code: '+86', en: 'China', cn: '中国' },
  { code: '+65', en: 'Singapore', cn: '新加坡' },
  { code: '+852', en: 'Hong Kong (China)', cn: '中国香港' },
  { code: '+853', en: 'Macao (China)', cn: '中国澳门' },
  { code: '+886', en: 'Taiwan (China)', cn: '中国台湾' },
  { code: '+62', en: 'Indonesia', cn: '印度尼西亚' },
  { code: '+66', en: 'Thailand', cn: '泰国' },
  { code: '+84', en: 'Vietnam', cn: '越南' },
  { code: '+63', en: 'Philippines', cn: '菲律宾' },
  { code: '+673', en: 'Brunei', cn: '文莱' },
  { code: '+91', en: 'India', cn: '印度' },
  { code: '+81', en: 'Japan', cn: '日本' },
  { code: '+82', en: 'South Korea', cn: '韩国' },
  { code: '+61', en: 'Australia', cn: '澳大利亚' },
  { code: '+64', en: 'New Zealand', cn: '新西兰' },
  { code: '+44', en: 'United Kingdom', cn: '英国' },
  { code: '+49', en: 'Germany', cn: '德国' },
  { code: '+33', en: 'France', cn: '法国' },
  { code: '+1', en: 'United States / Canada', cn: '美国 / 加拿大' },
  { code: '+971', en: 'United Arab Emirates', cn: '阿拉伯联合酋长国' },
  { code: '+966', en: 'Saudi Arabia', cn: '沙特阿拉伯' },
];

/** The number the server stores: area code and local number, without the national leading 0. */
export function joinAreaCode(areaCode: string, mobile: string): string {
  const local = mobile.replace(/[\s-]/g, '').replace(/^0+/, '');
  return `${areaCode}${local}`;
}

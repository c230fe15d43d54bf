import { z } from 'zod';
import { LoginType } from './enums';
import { ExistingAccount as Account, Password } from './rules';

/**
 * `/api/doLogin` (API.md): type 1 with `password` (plus `code` when the answer asked for one,
 * see LoginNeedsCode), type 2 with a verification `code` from `/api/sendCode`. Address-code login (type 3) has its own call, `/api/doLoginCode`.
 */
export const LoginRequest = z
  .object({
    account: Account,
    password: z.string().min(1).max(128).optional(),
    code: z
      .string()
      .trim()
      .regex(/^\d{6}$/, { error: 'rule.code' })
      .optional(),
    type: z.union([z.literal(LoginType.Password), z.literal(LoginType.Code)]).default(LoginType.Password),
    platform: z.coerce.number().int().min(1).max(3).default(1),
    /** A stable id of the browser or phone (the console keeps one in local storage); else the user agent counts. */
    deviceId: z.string().trim().min(8).max(100).optional(),
  })
  .refine((r) => r.type !== LoginType.Password || r.password !== undefined, {
    error: 'rule.required',
    path: ['password'],
  })
  .refine((r) => r.type !== LoginType.Code || r.code !== undefined, {
    error: 'rule.required',
    path: ['code'],
  });
export type LoginRequest = z.infer<typeof LoginRequest>;

export interface LoginResult {
  accessToken: string;
  /** Epoch milliseconds when the token stops working unless it is used again. */
  expireTime: number;
}

export const SwitchCompanyRequest = z.object({ id: z.coerce.string().min(1).max(40) });
export type SwitchCompanyRequest = z.infer<typeof SwitchCompanyRequest>;

/** `/api/user/userInfo` (spec section 3, "User-info response"). */
export interface UserInfo {
  id: string;
  relName: string;
  account: string;
  headImg: string;
  signCheck: boolean;
  exportExcel: boolean;
  dataViewPath: string;
  pcAlarmVoice: boolean;
  lastCompanyId: string | null;
  legalPerson: boolean;
  unreadNoticeCount: number;
  /** Platform operator: the console shows the operator area (/operator); may belong to no company. */
  isOperator: boolean;
}

/** One entry of `/api/index/getUserCompanys`. */
export interface UserCompany {
  id: string;
  name: string;
  industry: string;
  /** Spec section 3 company location: region and detailed address, as devices have them. */
  region?: string;
  address: string;
  isAdmin: boolean;
  current: boolean;
  /** The legal person cannot leave the company (docs/decisions.md). */
  legalPerson?: boolean;
  /** The caller is the company's only administrator, so cannot leave it either. */
  onlyAdmin?: boolean;
}

export interface UserPowers {
  menus: import('./menus').MenuEntry[];
  authTags: string[];
  serviceAuthTags: string[];
}

/** Codes for login and recovery (`/api/sendCode`, `/api/getAccountCode`) and the first recovery step. */
export const AccountRequest = z.object({ account: Account });
export type AccountRequest = z.infer<typeof AccountRequest>;

/** Recovery step 2: the code proves the account; the answer is a ticket for step 3. */
export const CheckCodeRequest = z.object({
  account: Account,
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, { error: 'rule.code' }),
});
export type CheckCodeRequest = z.infer<typeof CheckCodeRequest>;

/** Recovery step 3. The two new passwords must match ("Both Password Enter Not Match"). */
export const ResetPasswordRequest = z
  .object({
    account: Account,
    ticket: z.string().min(20).max(100),
    password: Password,
    confirmPassword: z.string(),
  })
  .refine((r) => r.password === r.confirmPassword, {
    error: 'rule.passwordsDiffer',
    path: ['confirmPassword'],
  });
export type ResetPasswordRequest = z.infer<typeof ResetPasswordRequest>;

import { z } from 'zod';
import { LoginType } from './enums';
import { Account } from './rules';

/** `/api/doLogin` (API.md): password login is type 1. Other types arrive with the accounts issue. */
export const LoginRequest = z.object({
  account: Account,
  password: z.string().min(1).max(128),
  type: z.literal(LoginType.Password).default(LoginType.Password),
  platform: z.coerce.number().int().min(1).max(3).default(1),
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
}

/** One entry of `/api/index/getUserCompanys`. */
export interface UserCompany {
  id: string;
  name: string;
  industry: string;
  address: string;
  isAdmin: boolean;
  current: boolean;
}

export interface UserPowers {
  menus: import('./menus').MenuEntry[];
  authTags: string[];
  serviceAuthTags: string[];
}

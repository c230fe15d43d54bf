import { z } from 'zod';
import { PersonOrRoleName } from './org';
import { UpdateUserInfoRequest } from './profile';
import { Account, Password } from './rules';

/** `/api/register/getPhoneCode` (API.md): a code by SMS for a mobile number, by e-mail for an address. */
export const GetCodeRequest = z.object({ account: Account });
export type GetCodeRequest = z.infer<typeof GetCodeRequest>;

export const VERIFICATION_CODE_PATTERN = /^\d{6}$/;
export const CODE_TTL_MINUTES = 10;
export const CODE_MAX_TRIES = 5;
export const CODE_RESEND_SECONDS = 60;

/** `/api/register/registerAccount` (API.md). */
export const RegisterAccountRequest = z.object({
  account: Account,
  code: z.string().trim().regex(VERIFICATION_CODE_PATTERN, { error: 'rule.code' }),
  password: Password,
  name: z.string().trim().min(2).max(100).optional(),
});
export type RegisterAccountRequest = z.infer<typeof RegisterAccountRequest>;

/**
 * `/api/register/modifyInformation`: right after registering, the new user completes their
 * information: a name (the rules of section 5), optionally gender and the e-mail or mobile
 * number that is not their account (the server keeps the account itself in its own field).
 */
export const ModifyInformationRequest = UpdateUserInfoRequest.pick({
  gender: true,
  phone: true,
  email: true,
}).extend({
  name: PersonOrRoleName,
});
export type ModifyInformationRequest = z.infer<typeof ModifyInformationRequest>;

/** `/api/user/createCompany` (API.md); organization name 2-20 characters (spec section 5). */
export const CreateCompanyRequest = z.object({
  name: z.string().trim().min(2).max(20),
  industry: z.string().trim().max(40).optional(),
  /** Spec section 3 company location: region and detailed address. */
  region: z.string().trim().max(255).optional(),
  address: z.string().trim().max(255).optional(),
});
export type CreateCompanyRequest = z.infer<typeof CreateCompanyRequest>;

/** `/api/user/industryList`: the industries a company can choose. */
export const Industries = [
  { value: 'healthcare', en: 'Healthcare', cn: '医疗卫生' },
  { value: 'pharma', en: 'Pharmaceuticals', cn: '医药' },
  { value: 'food', en: 'Food', cn: '食品' },
  { value: 'agriculture', en: 'Agriculture', cn: '农业' },
  { value: 'research', en: 'Research', cn: '科研' },
  { value: 'logistics', en: 'Logistics', cn: '物流' },
  { value: 'other', en: 'Other', cn: '其他' },
] as const;

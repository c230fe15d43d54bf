import { Account, PASSWORD_PATTERN, VERIFICATION_CODE_PATTERN } from '@coldchain/contract';
import type { FormRule } from 'antd';
import type { TFunction } from 'i18next';

/** Form rules of spec section 5 shared by register, recovery and password change. */

export const accountRules = (t: TFunction): FormRule[] => [
  { required: true, message: t('account.accountRequired') },
  {
    validator: (_, value: string) =>
      !value || Account.safeParse(value).success
        ? Promise.resolve()
        : Promise.reject(new Error(t('account.accountInvalid'))),
  },
];

export const codeRules = (t: TFunction): FormRule[] => [
  { required: true, message: t('account.codeRequired') },
  { pattern: VERIFICATION_CODE_PATTERN, message: t('account.codeRequired') },
];

export const passwordRules = (t: TFunction): FormRule[] => [
  { required: true, message: t('account.passwordRequired') },
  { pattern: PASSWORD_PATTERN, message: t('account.passwordRule') },
];

/** The second password must match the first ('Both Password Enter Not Match'). */
export const confirmRules = (t: TFunction, field = 'password'): FormRule[] => [
  { required: true, message: t('account.passwordRequired') },
  ({ getFieldValue }) => ({
    validator: (_: unknown, value: string) =>
      !value || value === getFieldValue(field)
        ? Promise.resolve()
        : Promise.reject(new Error(t('account.passwordsDiffer'))),
  }),
];

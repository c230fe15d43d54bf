import {
  EMAIL_PATTERN,
  isMobile,
  PASSWORD_PATTERN,
  PersonOrRoleName,
  SIGN_PASSWORD_PATTERN,
} from '@coldchain/contract';
import type { FormRule } from 'antd';
import type { TFunction } from 'i18next';

/** Form rules on the contract's own patterns, so the console refuses what the server would. */
function check(test: (value: string) => boolean, message: string): FormRule {
  return {
    validator: (_rule, value: unknown) =>
      test(String(value ?? '')) ? Promise.resolve() : Promise.reject(new Error(message)),
  };
}

export const nameRule = (t: TFunction) =>
  check((v) => PersonOrRoleName.safeParse(v).success, t('profile.rule.name'));
export const phoneRule = (t: TFunction) =>
  check((v) => v.trim() === '' || isMobile(v.trim()), t('profile.rule.phone'));
export const emailRule = (t: TFunction) =>
  check((v) => v.trim() === '' || EMAIL_PATTERN.test(v.trim()), t('profile.rule.email'));
export const passwordRule = (t: TFunction) =>
  check((v) => PASSWORD_PATTERN.test(v), t('profile.rule.password'));
export const signPasswordRule = (t: TFunction) =>
  check((v) => SIGN_PASSWORD_PATTERN.test(v), t('profile.rule.signPassword'));

/** Spec section 5: the two new passwords must match ('Both Password Enter Not Match'). */
export const matchesRule =
  (t: TFunction, other: string) =>
  ({ getFieldValue }: { getFieldValue: (name: string) => unknown }) => ({
    validator: (_rule: unknown, value: unknown) =>
      value === getFieldValue(other)
        ? Promise.resolve()
        : Promise.reject(new Error(t('profile.rule.passwordsDiffer'))),
  });

export const requiredRule = (t: TFunction, field: string): FormRule => ({
  required: true,
  message: t('profile.rule.required', { field }),
});

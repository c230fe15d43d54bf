import { DepartmentCode, OrganizationName, PersonOrRoleName, UploadPurpose } from '@coldchain/contract';
import type { FormRule } from 'antd';
import type { TFunction } from 'i18next';
import type { ZodType } from 'zod';

/** antd form rules built on the contract's schemas, so the console and server agree on them. */
function schemaRule(schema: ZodType, message: string): FormRule {
  return {
    // An empty field is the `required` rule's to report, so the message is not shown twice.
    validator: (_rule, value: unknown) =>
      value === undefined || value === '' || schema.safeParse(value).success
        ? Promise.resolve()
        : Promise.reject(new Error(message)),
  };
}

export const organizationNameRule = (t: TFunction) =>
  schemaRule(OrganizationName, t('org.rule.organizationName'));
export const roleNameRule = (t: TFunction) => schemaRule(PersonOrRoleName, t('org.rule.roleName'));
export const departmentCodeRule = (t: TFunction) => schemaRule(DepartmentCode, t('org.rule.departmentCode'));

/** Spec section 5: a department image is a jpg or png of at most 3 MB. */
export const DEPARTMENT_IMAGE_MAX_BYTES: number = UploadPurpose.department.maxBytes;
export const DEPARTMENT_IMAGE_TYPES = ['image/jpeg', 'image/png'];

/** The i18n key of what is wrong with a picked department image, or null when it may be sent. */
export function departmentImageProblem(file: { type: string; name: string; size: number }): string | null {
  const byName = /\.(jpe?g|png)$/i.test(file.name);
  if (!DEPARTMENT_IMAGE_TYPES.includes(file.type) && !byName) return 'org.image.badType';
  if (file.size > DEPARTMENT_IMAGE_MAX_BYTES) return 'org.image.tooLarge';
  return null;
}

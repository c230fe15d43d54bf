import type { WireLanguage } from '@coldchain/contract';
import { fieldLabel, type MessageKey, messages, translate } from '../i18n/messages';

/** The part of a zod issue (as fastify-type-provider-zod reports it) that a message needs. */
export interface ValidationIssue {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

/**
 * Turns the first validation issue into one sentence that names the field in the user's language
 * (spec section 5 rules carry their own sentence as `rule.*`).
 */
export function validationMessage(issue: ValidationIssue, language: WireLanguage, route?: string): string {
  const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || 'body';
  const field = fieldLabel(path, language, route);
  const p = issue.params;
  if (issue.message && issue.message in messages && issue.message.startsWith('rule.')) {
    return translate(issue.message as MessageKey, language, { field });
  }
  const bound = (key: string) => Number(p[key]);
  const isSized = p.origin === 'string' || p.origin === 'array';
  switch (issue.keyword) {
    case 'invalid_type':
      return translate(
        /received undefined/.test(issue.message ?? '') ? 'validation.required' : 'validation.type',
        language,
        { field },
      );
    case 'too_small':
      if (p.origin === 'string' && bound('minimum') === 1)
        return translate('validation.required', language, { field });
      return translate(
        isSized
          ? p.origin === 'array'
            ? 'validation.tooFewItems'
            : 'validation.tooShort'
          : 'validation.tooSmall',
        language,
        { field, min: bound('minimum') },
      );
    case 'too_big':
      return translate(
        isSized
          ? p.origin === 'array'
            ? 'validation.tooManyItems'
            : 'validation.tooLong'
          : 'validation.tooBig',
        language,
        { field, max: bound('maximum') },
      );
    case 'unrecognized_keys':
      return translate('validation.unknownField', language, {
        field: Array.isArray(p.keys) ? p.keys.join(', ') : field,
      });
    default:
      return translate('validation.invalid', language, { field });
  }
}

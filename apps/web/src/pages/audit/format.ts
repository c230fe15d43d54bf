import { auditActionTitles, auditTargetTitles } from '@coldchain/contract';
import type { TFunction } from 'i18next';

/** Menu and action titles live in the contract in `en`/`cn`; the console's locales are `en`/`zh-CN`. */
function wire(language: string): 'en' | 'cn' {
  return language.startsWith('zh') ? 'cn' : 'en';
}

export function actionTitle(action: string, language: string): string {
  return auditActionTitles[action]?.[wire(language)] ?? action;
}

export function targetTitle(targetType: string, language: string): string {
  return auditTargetTitles[targetType]?.[wire(language)] ?? targetType;
}

export function platformName(t: TFunction, platform: number): string {
  return t(`audit.platform.${platform}`, { defaultValue: String(platform) });
}

export function methodName(t: TFunction, method: string): string {
  return t(`audit.method.${method}`, { defaultValue: method });
}

/** Reasons are stored as short English phrases (`wrong password`); unknown ones show as written. */
export function reasonText(t: TFunction, reason: string): string {
  if (!reason) return '';
  const table = t('audit.reason', { returnObjects: true }) as unknown as Record<string, string>;
  return table[reason] ?? reason;
}

/** One row of the old -> new view: a field whose value differs (or every field when one side is absent). */
export interface FieldChange {
  field: string;
  before: string;
  after: string;
}

function show(value: unknown): string {
  if (value === undefined) return '';
  if (value === null) return 'null';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The fields an entry changed. Objects are compared field by field (only differing fields are
 * listed); anything else is one row under the empty field name.
 */
export function fieldChanges(before: unknown, after: unknown): FieldChange[] {
  if ((before === null || before === undefined) && (after === null || after === undefined)) return [];
  if ((isRecord(before) || before == null) && (isRecord(after) || after == null)) {
    const b = (before ?? {}) as Record<string, unknown>;
    const a = (after ?? {}) as Record<string, unknown>;
    const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])].sort();
    return fields
      .filter((f) => JSON.stringify(b[f]) !== JSON.stringify(a[f]))
      .map((field) => ({ field, before: show(b[field]), after: show(a[field]) }));
  }
  return [{ field: '', before: show(before), after: show(after) }];
}

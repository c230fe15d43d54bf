import { randomBytes } from 'node:crypto';
import {
  type AttributeValue,
  type EquipmentAttribute,
  type StoredAttribute,
  TEXT_ATTRIBUTE_MAX,
  TEXT_ATTRIBUTE_MIN,
  UPLOAD_URL_PREFIX,
  type WireLanguage,
} from '@coldchain/contract';
import { type MessageKey, translate } from '../../i18n/messages';
import { AppError } from '../../lib/app-error';
import { checkUpload, readUpload } from '../files/file-store';
import type { FileStore } from '../files/store/store';

/**
 * Attribute definitions and values of equipment types (spec sections 3 and 5). Pure checks, used
 * both when equipment is saved (the first problem is refused) and when it is read (every problem
 * is listed, so a changed type never silently invalidates stored values).
 */

export interface AttributeProblem {
  code: MessageKey;
  params: Record<string, string | number>;
}

/** Gives new attributes an id, keeps the ids sent; an id the type does not have is refused. */
export function storeAttributes(sent: EquipmentAttribute[], existing: StoredAttribute[]): StoredAttribute[] {
  const known = new Set(existing.map((a) => a.id));
  return sent.map((a) => {
    if (a.id !== undefined && !known.has(a.id))
      throw new AppError('EQUIPMENT_ATTRIBUTE_UNKNOWN', { id: a.id });
    const base = {
      id: a.id ?? randomBytes(4).toString('hex'),
      name: a.name,
      kind: a.kind,
      required: a.required,
    };
    switch (a.kind) {
      case 'text':
        return {
          ...base,
          minLength: a.minLength ?? TEXT_ATTRIBUTE_MIN,
          maxLength: a.maxLength ?? TEXT_ATTRIBUTE_MAX,
        };
      case 'number':
        return { ...base, numberKind: a.numberKind ?? 'decimal', min: a.min, max: a.max, unit: a.unit ?? '' };
      case 'choice':
        return {
          ...base,
          options: a.options ?? [],
          multiple: a.multiple ?? false,
          allowOther: a.allowOther ?? false,
        };
      default:
        return base;
    }
  });
}

const isEmpty = (v: unknown) =>
  v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

const ATTACHMENT_URL = new RegExp(`^${UPLOAD_URL_PREFIX}[a-f0-9]{32}\\.(pdf|jpg|png)$`);

/** The problem of one value against its attribute, or null when it fits. */
export function attributeProblem(attr: StoredAttribute, value: unknown): AttributeProblem | null {
  const name = attr.name;
  if (isEmpty(value)) return attr.required ? { code: 'ATTRIBUTE_REQUIRED', params: { name } } : null;
  switch (attr.kind) {
    case 'text': {
      const min = attr.minLength ?? TEXT_ATTRIBUTE_MIN;
      const max = attr.maxLength ?? TEXT_ATTRIBUTE_MAX;
      if (typeof value !== 'string' || [...value].length < min || [...value].length > max)
        return { code: 'ATTRIBUTE_TEXT', params: { name, min, max } };
      return null;
    }
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value))
        return { code: 'ATTRIBUTE_NUMBER', params: { name } };
      if (attr.numberKind === 'integer' && !Number.isInteger(value))
        return { code: 'ATTRIBUTE_INTEGER', params: { name } };
      if (Math.abs(Math.round(value * 100) - value * 100) > 1e-6)
        return { code: 'ATTRIBUTE_DECIMALS', params: { name } };
      if (attr.min !== undefined && value < attr.min)
        return { code: 'ATTRIBUTE_TOO_SMALL', params: { name, min: attr.min } };
      if (attr.max !== undefined && value > attr.max)
        return { code: 'ATTRIBUTE_TOO_BIG', params: { name, max: attr.max } };
      return null;
    }
    case 'attachment':
      return typeof value === 'string' && ATTACHMENT_URL.test(value)
        ? null
        : { code: 'ATTRIBUTE_ATTACHMENT', params: { name } };
    case 'choice': {
      const chosen = typeof value === 'string' ? [value] : value;
      if (!Array.isArray(chosen) || chosen.some((c) => typeof c !== 'string'))
        return { code: 'ATTRIBUTE_CHOICE', params: { name } };
      if (!attr.multiple && chosen.length > 1) return { code: 'ATTRIBUTE_CHOICE_SINGLE', params: { name } };
      if (new Set(chosen).size !== chosen.length) return { code: 'ATTRIBUTE_CHOICE', params: { name } };
      const others = chosen.filter((c) => !(attr.options ?? []).includes(c));
      if (others.length === 0) return null;
      if (!attr.allowOther) return { code: 'ATTRIBUTE_CHOICE', params: { name } };
      if (others.length > 1 || others[0]!.length > 50)
        return { code: 'ATTRIBUTE_CHOICE_OTHER', params: { name } };
      return null;
    }
  }
  return null;
}

/** Every problem of stored values against the type as it is now, in the request's language. */
export function attributeIssues(
  attrs: StoredAttribute[],
  values: Record<string, unknown>,
  language: WireLanguage,
): { attributeId: string; name: string; message: string }[] {
  return attrs.flatMap((a) => {
    const problem = attributeProblem(a, values[a.id]);
    return problem
      ? [{ attributeId: a.id, name: a.name, message: translate(problem.code, language, problem.params) }]
      : [];
  });
}

/** Whether stored values still fit the type (for counting affected equipment). */
export const valuesFit = (attrs: StoredAttribute[], values: Record<string, unknown>) =>
  attrs.every((a) => attributeProblem(a, values[a.id]) === null);

/** Only the values of the type's current attributes: removed ones stay stored but are not shown. */
export function currentValues(
  attrs: StoredAttribute[],
  values: Record<string, unknown>,
): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const a of attrs) if (!isEmpty(values[a.id])) out[a.id] = values[a.id] as AttributeValue;
  return out;
}

/**
 * Checks values sent for a save: unknown ids and the first problem are refused, and every
 * attachment is read back and checked by its first bytes (PDF, JPG or PNG under 1 MB). Values of
 * attributes the type no longer has are kept from `stored` so nothing is dropped silently.
 */
export async function acceptValues(
  attrs: StoredAttribute[],
  sent: Record<string, AttributeValue | null>,
  stored: Record<string, unknown>,
  files: { store: FileStore; language: WireLanguage },
): Promise<Record<string, unknown>> {
  const byId = new Map(attrs.map((a) => [a.id, a]));
  for (const id of Object.keys(sent))
    if (!byId.has(id)) throw new AppError('EQUIPMENT_ATTRIBUTE_UNKNOWN', { id });
  const kept: Record<string, unknown> = Object.fromEntries(
    Object.entries(stored).filter(([id]) => !byId.has(id)),
  );
  for (const attr of attrs) {
    const value = sent[attr.id];
    const problem = attributeProblem(attr, value);
    if (problem) throw new AppError(problem.code, problem.params);
    if (isEmpty(value)) continue;
    if (attr.kind === 'attachment') {
      const file = await readUpload(files.store, value as string);
      if (!file) throw new AppError('EQUIPMENT_FILE_NOT_FOUND', { name: attr.name });
      checkUpload('attachment', file.bytes, files.language);
    }
    kept[attr.id] = attr.kind === 'text' ? (value as string).trim() : value;
  }
  return kept;
}

import type { AttributeValue, ChoiceValue, EquipmentAttribute, WireValue } from './types';

/*
 * The rules of equipment types and of the values equipment stores for them (spec sections 3 and
 * 5, issue 14). The console checks them to spare a refused save; the server checks them again.
 */

/**
 * At most this many attributes per type (docs/API.md `EQUIPMENT_ATTRIBUTE_MAX`). The spec says 20
 * and 50; the server chose 20, the tighter one, and the console follows it.
 */
export const MAX_ATTRIBUTES = 20;
/** Spec section 5: a text attribute's length range lies within 4-10. */
export const TEXT_LENGTH_MIN = 4;
export const TEXT_LENGTH_MAX = 10;
/** Spec section 3: an attachment is under 1 MB (the upload purpose `attachment`). */
export const ATTACHMENT_MAX_BYTES = 1_048_576;
export const CODE_PATTERN = /^\d{1,10}$/;
export const SERIAL_SUFFIX_PATTERN = /^\d{4}$/;
export const TYPE_NAME_MAX = 50;
export const ATTRIBUTE_NAME_MAX = 50;
export const OPTION_MAX = 50;
export const OPTIONS_MAX = 50;
export const UNIT_MAX = 20;
export const OTHER_MAX = 50;
/** The generic rule "at most 2 decimals" of spec section 5. */
const DECIMAL_PATTERN = /^-?\d+(\.\d{1,2})?$/;

/** A problem as a catalogue key under `equipment.rule` and its parameters. */
export interface RuleProblem {
  key: string;
  params?: Record<string, string | number>;
}

const problem = (key: string, params?: RuleProblem['params']): RuleProblem => ({
  key,
  ...(params ? { params } : {}),
});

/** What is wrong with one attribute's definition, or null. */
export function checkAttributeDefinition(attribute: EquipmentAttribute): RuleProblem | null {
  const name = attribute.name?.trim() ?? '';
  if (!name) return problem('attributeNameRequired');
  if (name.length > ATTRIBUTE_NAME_MAX) return problem('attributeNameTooLong', { max: ATTRIBUTE_NAME_MAX });
  switch (attribute.kind) {
    case 'text': {
      const min = attribute.minLength ?? TEXT_LENGTH_MIN;
      const max = attribute.maxLength ?? TEXT_LENGTH_MAX;
      const inside = (n: number) => Number.isInteger(n) && n >= TEXT_LENGTH_MIN && n <= TEXT_LENGTH_MAX;
      if (!inside(min) || !inside(max))
        return problem('textRange', { name, min: TEXT_LENGTH_MIN, max: TEXT_LENGTH_MAX });
      if (min > max) return problem('minAboveMax', { name });
      return null;
    }
    case 'number': {
      const { min, max } = attribute;
      if ((attribute.unit ?? '').length > UNIT_MAX) return problem('unitTooLong', { name, max: UNIT_MAX });
      if (min !== undefined && max !== undefined && min > max) return problem('minAboveMax', { name });
      if (
        attribute.numberKind === 'integer' &&
        [min, max].some((n) => n !== undefined && !Number.isInteger(n))
      )
        return problem('integerBounds', { name });
      return null;
    }
    case 'choice': {
      const options = (attribute.options ?? []).map((o) => o.trim());
      if (options.length < 1) return problem('optionsRequired', { name });
      if (options.length > OPTIONS_MAX) return problem('tooManyOptions', { name, max: OPTIONS_MAX });
      if (options.some((o) => !o)) return problem('optionEmpty', { name });
      if (options.some((o) => o.length > OPTION_MAX))
        return problem('optionTooLong', { name, max: OPTION_MAX });
      if (new Set(options).size !== options.length) return problem('optionDuplicate', { name });
      return null;
    }
    case 'attachment':
      return null;
    default:
      return problem('kindRequired', { name });
  }
}

/** What is wrong with a type's attribute list as a whole (count, duplicate names), or null. */
export function checkAttributeList(attributes: EquipmentAttribute[]): RuleProblem | null {
  if (attributes.length > MAX_ATTRIBUTES) return problem('tooManyAttributes', { max: MAX_ATTRIBUTES });
  const names = attributes.map((a) => a.name?.trim()).filter(Boolean);
  const duplicate = names.find((n, i) => names.indexOf(n) !== i);
  if (duplicate) return problem('attributeDuplicate', { name: duplicate });
  for (const attribute of attributes) {
    const found = checkAttributeDefinition(attribute);
    if (found) return found;
  }
  return null;
}

function isEmpty(value: AttributeValue | undefined | null): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (typeof value === 'object') return value.options.length === 0 && !value.other?.trim();
  return false;
}

/** The option that stands for free text in a choice (`allowOther`); never an option's own text. */
export const OTHER_OPTION = '__other__';

/** What is wrong with a value stored for `attribute`, or null. Empty optional values pass. */
export function checkAttributeValue(
  attribute: EquipmentAttribute,
  value: AttributeValue | undefined | null,
): RuleProblem | null {
  const name = attribute.name;
  if (isEmpty(value)) return attribute.required ? problem('valueRequired', { name }) : null;
  switch (attribute.kind) {
    case 'text': {
      const text = String(value).trim();
      const min = attribute.minLength ?? TEXT_LENGTH_MIN;
      const max = attribute.maxLength ?? TEXT_LENGTH_MAX;
      if (text.length < min || text.length > max) return problem('valueLength', { name, min, max });
      return null;
    }
    case 'number': {
      const raw = String(value).trim();
      if (attribute.numberKind === 'integer' ? !/^-?\d+$/.test(raw) : !DECIMAL_PATTERN.test(raw))
        return problem(attribute.numberKind === 'integer' ? 'valueInteger' : 'valueDecimal', { name });
      const n = Number(raw);
      if (attribute.min !== undefined && n < attribute.min)
        return problem('valueMin', { name, min: attribute.min });
      if (attribute.max !== undefined && n > attribute.max)
        return problem('valueMax', { name, max: attribute.max });
      return null;
    }
    case 'choice': {
      const choice = value as ChoiceValue;
      if (!attribute.multiple && choice.options.length > 1) return problem('valueSingle', { name });
      const allowed = new Set([
        ...(attribute.options ?? []),
        ...(attribute.allowOther ? [OTHER_OPTION] : []),
      ]);
      if (choice.options.some((o) => !allowed.has(o))) return problem('valueUnknownOption', { name });
      if (choice.options.includes(OTHER_OPTION) && !choice.other?.trim())
        return problem('valueOtherRequired', { name });
      if ((choice.other?.trim().length ?? 0) > OTHER_MAX)
        return problem('valueOtherTooLong', { name, max: OTHER_MAX });
      return null;
    }
    default:
      return null;
  }
}

/**
 * A form value as the server stores it: numbers as numbers, text trimmed, and a choice as a string
 * (single) or a string array (multiple), the "other" free text standing in for the "other" option.
 */
export function toWireValue(
  attribute: EquipmentAttribute,
  value: AttributeValue | undefined,
): WireValue | undefined {
  if (isEmpty(value)) return undefined;
  if (attribute.kind === 'number') return Number(value);
  if (attribute.kind === 'choice') {
    const choice = value as ChoiceValue;
    const picked = choice.options.map((o) => (o === OTHER_OPTION ? (choice.other?.trim() ?? '') : o));
    return attribute.multiple ? picked : (picked[0] ?? '');
  }
  return String(value).trim();
}

/** A stored value as the form edits it (the inverse of `toWireValue`). */
export function fromWireValue(
  attribute: EquipmentAttribute,
  value: WireValue | undefined,
): AttributeValue | undefined {
  if (value === undefined || value === null) return undefined;
  if (attribute.kind === 'choice') {
    const stored = Array.isArray(value) ? value : [String(value)];
    const known = new Set(attribute.options ?? []);
    const other = stored.find((v) => !known.has(v));
    const options = stored.filter((v) => known.has(v));
    return other === undefined ? { options } : { options: [...options, OTHER_OPTION], other };
  }
  if (attribute.kind === 'number') return String(value);
  return Array.isArray(value) ? value.join(', ') : value;
}

/** A stored value as the detail page shows it. */
export function displayValue(attribute: EquipmentAttribute, value: WireValue | undefined): string {
  if (value === undefined || value === null || value === '') return '-';
  if (Array.isArray(value)) return value.join(', ');
  if (attribute.kind === 'number' && attribute.unit) return `${value} ${attribute.unit}`;
  return String(value);
}

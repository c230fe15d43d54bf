import { describe, expect, it } from 'vitest';
import {
  checkAttributeDefinition,
  checkAttributeList,
  checkAttributeValue,
  fromWireValue,
  MAX_ATTRIBUTES,
  OTHER_OPTION,
  toWireValue,
} from './attribute-rules';
import type { EquipmentAttribute } from './types';

const text: EquipmentAttribute = { id: 'a', name: 'Brand', kind: 'text', minLength: 4, maxLength: 6 };
const integer: EquipmentAttribute = {
  id: 'b',
  name: 'Volume',
  kind: 'number',
  numberKind: 'integer',
  min: 1,
  max: 10,
};
const decimal: EquipmentAttribute = { id: 'c', name: 'Set point', kind: 'number', numberKind: 'decimal' };
const single: EquipmentAttribute = {
  id: 'd',
  name: 'Door',
  kind: 'choice',
  options: ['Glass', 'Solid'],
  allowOther: true,
};
const multiple: EquipmentAttribute = { ...single, id: 'e', multiple: true };

describe('type definitions', () => {
  it('keeps a text length range within 4-10 with min <= max', () => {
    expect(checkAttributeDefinition(text)).toBeNull();
    expect(checkAttributeDefinition({ ...text, minLength: 3 })?.key).toBe('textRange');
    expect(checkAttributeDefinition({ ...text, maxLength: 11 })?.key).toBe('textRange');
    expect(checkAttributeDefinition({ ...text, minLength: 8, maxLength: 5 })?.key).toBe('minAboveMax');
  });

  it('checks number ranges, choice options and the attribute cap', () => {
    expect(checkAttributeDefinition({ ...integer, min: 5, max: 1 })?.key).toBe('minAboveMax');
    expect(checkAttributeDefinition({ ...integer, min: 1.5 })?.key).toBe('integerBounds');
    expect(checkAttributeDefinition({ ...single, options: [] })?.key).toBe('optionsRequired');
    expect(checkAttributeDefinition({ ...single, options: ['A', 'A'] })?.key).toBe('optionDuplicate');
    const many = Array.from({ length: MAX_ATTRIBUTES + 1 }, (_, i) => ({ ...text, name: `n${i}` }));
    expect(checkAttributeList(many)?.key).toBe('tooManyAttributes');
    expect(checkAttributeList(many.slice(0, MAX_ATTRIBUTES))).toBeNull();
    expect(checkAttributeList([text, { ...integer, name: 'Brand' }])?.key).toBe('attributeDuplicate');
  });
});

describe('stored values', () => {
  it('validates values by kind', () => {
    expect(checkAttributeValue(text, 'abc')?.key).toBe('valueLength');
    expect(checkAttributeValue(text, 'Haier')).toBeNull();
    expect(checkAttributeValue(integer, '2.5')?.key).toBe('valueInteger');
    expect(checkAttributeValue(integer, '11')?.key).toBe('valueMax');
    expect(checkAttributeValue(decimal, '2.555')?.key).toBe('valueDecimal');
    expect(checkAttributeValue(decimal, '-2.55')).toBeNull();
    expect(checkAttributeValue({ ...text, required: true }, '')?.key).toBe('valueRequired');
    expect(checkAttributeValue(single, { options: ['Glass', 'Solid'] })?.key).toBe('valueSingle');
    expect(checkAttributeValue(single, { options: [OTHER_OPTION] })?.key).toBe('valueOtherRequired');
    expect(
      checkAttributeValue({ ...single, allowOther: false }, { options: [OTHER_OPTION], other: 'x' })?.key,
    ).toBe('valueUnknownOption');
  });

  it('sends choices as the server stores them, "other" as its free text, and reads them back', () => {
    expect(toWireValue(single, { options: [OTHER_OPTION], other: ' Mesh ' })).toBe('Mesh');
    expect(toWireValue(multiple, { options: ['Glass', OTHER_OPTION], other: 'Mesh' })).toEqual([
      'Glass',
      'Mesh',
    ]);
    expect(toWireValue(integer, '7')).toBe(7);
    expect(fromWireValue(multiple, ['Glass', 'Mesh'])).toEqual({
      options: ['Glass', OTHER_OPTION],
      other: 'Mesh',
    });
    expect(fromWireValue(single, 'Solid')).toEqual({ options: ['Solid'] });
  });
});

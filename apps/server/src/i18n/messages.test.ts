import { describe, expect, it } from 'vitest';
import { areaFieldLabels, fieldLabel, sharedFieldLabels } from './messages';

describe('field labels', () => {
  it('never lets one area rename a field another area or the shared list already names', () => {
    const seen = new Map<string, { owner: string; text: string }>();
    for (const [key, label] of Object.entries(sharedFieldLabels)) {
      seen.set(key, { owner: 'shared', text: `${label.en} / ${label.cn}` });
    }
    const clashes: string[] = [];
    for (const [area, labels] of Object.entries(areaFieldLabels)) {
      for (const [key, label] of Object.entries(labels)) {
        const text = `${label.en} / ${label.cn}`;
        const earlier = seen.get(key);
        if (earlier && earlier.text !== text) {
          clashes.push(`${key}: ${earlier.owner} "${earlier.text}" vs ${area} "${text}"`);
        }
        if (!earlier) seen.set(key, { owner: area, text });
      }
    }
    expect(clashes).toEqual([]);
  });

  it('names a field by its call where the same name means something else elsewhere', () => {
    expect(fieldLabel('code', 'en')).toBe('Verification code');
    expect(fieldLabel('code', 'en', '/api/equipmentType/saveType')).toBe('Type code');
    expect(fieldLabel('cause', 'cn')).toBe('原因');
    expect(fieldLabel('cause', 'cn', '/api/equipment/addRecord')).toBe('故障原因');
    expect(fieldLabel('attributes.0.name', 'en', '/api/equipmentType/saveType')).toBe('Attribute name');
  });
});

import { describe, expect, it } from 'vitest';
import { canonicalAround, canonicalJson } from './audit-chain';

describe('canonicalAround', () => {
  const fields = {
    companyId: 7,
    userId: null,
    action: 'device.edit',
    targetType: 'device',
    targetId: '12',
    before: { name: 'Fridge "A"', seq: 3, nested: { z: 1, a: [2, 'é'] } },
    after: { name: 'Fridge B' },
    reason: '',
    ip: '127.0.0.1',
    createdAt: 1_764_000_000_123,
  };

  it('cuts the canonical JSON around the key, whatever members come before or after it', () => {
    for (const seq of [1, 9, 10, 123_456]) {
      const { prefix, suffix } = canonicalAround(fields, 'seq');
      expect(`${prefix}${seq}${suffix}`).toBe(canonicalJson({ ...fields, seq }));
    }
  });

  it('works when the key sorts first or last', () => {
    const first = canonicalAround({ b: 1, c: 'x' }, 'a');
    expect(`${first.prefix}5${first.suffix}`).toBe(canonicalJson({ a: 5, b: 1, c: 'x' }));
    const last = canonicalAround({ a: 1, b: undefined }, 'z');
    expect(`${last.prefix}5${last.suffix}`).toBe('{"a":1,"z":5}');
    const alone = canonicalAround({}, 'seq');
    expect(`${alone.prefix}5${alone.suffix}`).toBe('{"seq":5}');
  });
});

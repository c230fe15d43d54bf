import { describe, expect, it } from 'vitest';
import { canonicalAround, canonicalCut, canonicalJson } from './audit-chain';

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

describe('canonicalCut', () => {
  it('cuts around several keys, each value given as its canonical JSON', () => {
    const fields = { action: 'alarm.resolve', after: { resolveState: 3 }, ip: '::1', userId: 4 };
    for (const before of [{ resolveState: 1 }, { resolveState: 5, note: '冷 "x"' }, null]) {
      const [head, middle, tail] = canonicalCut(fields, ['before', 'seq']);
      expect(`${head}${canonicalJson(before)}${middle}17${tail}`).toBe(
        canonicalJson({ ...fields, before, seq: 17 }),
      );
    }
  });

  it('gives one piece more than keys, with keys first, last or next to each other', () => {
    expect(canonicalCut({ m: 1 }, ['a', 'z'])).toEqual(['{"a":', ',"m":1,"z":', '}']);
    expect(canonicalCut({}, ['a', 'b'])).toEqual(['{"a":', ',"b":', '}']);
  });
});

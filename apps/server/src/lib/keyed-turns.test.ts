import { describe, expect, it } from 'vitest';
import { KeyedTurns } from './keyed-turns';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('KeyedTurns', () => {
  it('runs the work of one key one at a time, in order, and of other keys alongside', async () => {
    const turns = new KeyedTurns<string>();
    const events: string[] = [];
    const work = (name: string) => async () => {
      events.push(`${name} start`);
      await tick();
      events.push(`${name} end`);
      return name;
    };
    const results = await Promise.all([
      turns.run('rule 1', work('a')),
      turns.run('rule 1', work('b')),
      turns.run('rule 2', work('c')),
    ]);
    expect(results).toEqual(['a', 'b', 'c']);
    // b starts after a ends; c (another key) runs while a does.
    expect(events.indexOf('b start')).toBeGreaterThan(events.indexOf('a end'));
    expect(events.indexOf('c start')).toBeLessThan(events.indexOf('a end'));
    expect(turns.busyKeys).toBe(0);
  });

  it('gives the next its turn after a failure, and the failure to its caller', async () => {
    const turns = new KeyedTurns<number>();
    const failed = turns.run(1, async () => {
      await tick();
      throw new Error('refused');
    });
    const next = turns.run(1, async () => 'saved');
    await expect(failed).rejects.toThrow('refused');
    await expect(next).resolves.toBe('saved');
    await tick();
    expect(turns.busyKeys).toBe(0);
  });
});

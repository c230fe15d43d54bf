import { describe, expect, it } from 'vitest';
import { DatabaseChanges } from '../db/database-changes';
import { AnswerCache } from './answer-cache';

/** A computation that counts its runs and answers when told to. */
function counted(value: string) {
  let runs = 0;
  return {
    compute: async () => {
      runs++;
      return `${value} #${runs}`;
    },
    runs: () => runs,
  };
}

describe('answers reused between changes', () => {
  it('reuses an answer while nothing changed, and computes once for callers that ask together', async () => {
    const cache = new AnswerCache(new DatabaseChanges(), 60_000);
    const work = counted('devices');
    const together = await Promise.all([cache.answer('k', work.compute), cache.answer('k', work.compute)]);
    expect(together).toEqual(['devices #1', 'devices #1']);
    expect(await cache.answer('k', work.compute)).toBe('devices #1');
    expect(work.runs()).toBe(1);
    // Another question is another answer.
    expect(await cache.answer('other', work.compute)).toBe('devices #2');
  });

  it('computes again after any change to the database', async () => {
    const changes = new DatabaseChanges();
    const cache = new AnswerCache(changes, 60_000);
    const work = counted('alarms');
    expect(await cache.answer('k', work.compute)).toBe('alarms #1');
    changes.noteChange();
    expect(await cache.answer('k', work.compute)).toBe('alarms #2');
    expect(await cache.answer('k', work.compute)).toBe('alarms #2');
  });

  it('computes every answer while the count is incomplete (PostgreSQL not hearing the other instances), and reuses again under a new count', async () => {
    const changes = new DatabaseChanges({ complete: false });
    const cache = new AnswerCache(changes, 60_000);
    const work = counted('devices');
    expect(await cache.answer('k', work.compute)).toBe('devices #1');
    expect(await cache.answer('k', work.compute)).toBe('devices #2');
    changes.setComplete(true);
    expect(await cache.answer('k', work.compute)).toBe('devices #3');
    expect(await cache.answer('k', work.compute)).toBe('devices #3');
    // Hearing breaks: what was kept may miss a change made meanwhile, and is not used again.
    changes.setComplete(false);
    changes.setComplete(true);
    expect(await cache.answer('k', work.compute)).toBe('devices #4');
    // Another instance's change ends it too.
    changes.noteChangeElsewhere();
    expect(await cache.answer('k', work.compute)).toBe('devices #5');
  });

  it('does not keep an answer whose computation saw a change begin: it is stored under the count it started with', async () => {
    const changes = new DatabaseChanges();
    const cache = new AnswerCache(changes, 60_000);
    let finish: (value: string) => void = () => undefined;
    const slow = cache.answer('k', () => new Promise<string>((resolve) => (finish = resolve)));
    changes.noteChange();
    finish('read before the change');
    expect(await slow).toBe('read before the change');
    expect(await cache.answer('k', async () => 'read after it')).toBe('read after it');
  });

  it('computes again once the answer is older than its time to live, change or not', async () => {
    const cache = new AnswerCache(new DatabaseChanges(), 20);
    const work = counted('home');
    expect(await cache.answer('k', work.compute)).toBe('home #1');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(await cache.answer('k', work.compute)).toBe('home #2');
  });

  it('keeps no failure: the next caller asks again', async () => {
    const cache = new AnswerCache(new DatabaseChanges(), 60_000);
    await expect(cache.answer('k', async () => Promise.reject(new Error('refused')))).rejects.toThrow(
      'refused',
    );
    expect(await cache.answer('k', async () => 'fine')).toBe('fine');
  });

  it('computes every time without a change count (PostgreSQL, written by other instances too)', async () => {
    const cache = new AnswerCache(undefined, 60_000);
    const work = counted('notices');
    await cache.answer('k', work.compute);
    await cache.answer('k', work.compute);
    expect(work.runs()).toBe(2);
    expect(cache.size).toBe(0);
  });

  it('drops expired answers as soon as another is computed', async () => {
    const cache = new AnswerCache(new DatabaseChanges(), 20);
    await cache.answer('a', async () => 'old');
    await new Promise((resolve) => setTimeout(resolve, 30));
    await cache.answer('b', async () => 'new');
    expect(cache.size).toBe(1);
  });

  it('keeps at most its limit of answers, dropping the least recently computed', async () => {
    const cache = new AnswerCache(new DatabaseChanges(), 60_000, 2);
    const work = counted('x');
    await cache.answer('a', work.compute);
    await cache.answer('b', work.compute);
    await cache.answer('c', work.compute);
    expect(cache.size).toBe(2);
    expect(await cache.answer('a', work.compute)).toBe('x #4');
    expect(await cache.answer('c', work.compute)).toBe('x #3');
  });
});

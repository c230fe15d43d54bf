import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import { openTestDatabase } from '../../test/test-database';
import { enqueueJob, JobQueue } from './job-queue';
import { jobs } from './jobs.table';

const silent = { warn: () => undefined, error: () => undefined } as never;

describe('database job queue', () => {
  let database: Database;
  let now = new Date('2026-05-01T00:00:00Z');
  const clock = () => now;
  const later = (ms: number) => {
    now = new Date(now.getTime() + ms);
  };

  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.db.delete(jobs);
  });

  it('runs a due job once, leaves a future one queued, and enqueues a key once', async () => {
    const queue = new JobQueue(database.db, silent, { clock, owner: 'a' });
    const seen: number[] = [];
    queue.handle('test.note', async (job) => {
      seen.push(job.payload.n as number);
    });
    await enqueueJob(database.db, 'test.note', { n: 1 }, { runAt: now, key: 'k1' });
    expect(await enqueueJob(database.db, 'test.note', { n: 1 }, { runAt: now, key: 'k1' })).toBeNull();
    await enqueueJob(database.db, 'test.note', { n: 2 }, { runAt: new Date(now.getTime() + 60_000) });
    await queue.runDue();
    await queue.runDue();
    expect(seen).toEqual([1]);
    later(60_000);
    await queue.runDue();
    expect(seen).toEqual([1, 2]);
    const rows = await database.db.select().from(jobs);
    expect(rows.map((r) => [r.status, r.attempts, r.leaseOwner])).toEqual([
      ['done', 1, null],
      ['done', 1, null],
    ]);
  });

  it('retries a failing job with doubling backoff, then marks it failed with the error', async () => {
    const queue = new JobQueue(database.db, silent, { clock, owner: 'a', backoffMs: 1_000 });
    let calls = 0;
    queue.handle('test.fail', async () => {
      calls += 1;
      throw new Error(`broken ${calls}`);
    });
    const id = (await enqueueJob(database.db, 'test.fail', {}, { runAt: now, maxAttempts: 3 }))!;
    const row = async () => (await database.db.select().from(jobs).where(eq(jobs.id, id)))[0]!;
    await queue.runDue();
    expect(await row()).toMatchObject({ status: 'queued', attempts: 1, lastError: 'broken 1' });
    expect((await row()).runAt.getTime()).toBe(now.getTime() + 1_000);
    later(999);
    await queue.runDue();
    expect(calls).toBe(1);
    later(1);
    await queue.runDue();
    expect((await row()).runAt.getTime()).toBe(now.getTime() + 2_000);
    later(2_000);
    await queue.runDue();
    expect(await row()).toMatchObject({ status: 'failed', attempts: 3, lastError: 'broken 3' });
    later(3_600_000);
    await queue.runDue();
    expect(calls).toBe(3);
  });

  it('lets another instance take over a job whose lease ran out, and ignores the late first owner', async () => {
    const first = new JobQueue(database.db, silent, { clock, owner: 'first', leaseMs: 60_000 });
    const second = new JobQueue(database.db, silent, { clock, owner: 'second', leaseMs: 60_000 });
    const ran: string[] = [];
    first.handle('test.lease', async () => {
      ran.push('first');
    });
    second.handle('test.lease', async () => {
      ran.push('second');
    });
    const id = (await enqueueJob(database.db, 'test.lease', {}, { runAt: now }))!;
    // The first instance takes the job and dies before finishing it.
    expect((await first.claim())?.id).toBe(id);
    await second.runDue();
    expect(ran).toEqual([]);
    later(60_001);
    await second.runDue();
    expect(ran).toEqual(['second']);
    const [row] = await database.db.select().from(jobs).where(eq(jobs.id, id));
    expect(row).toMatchObject({ status: 'done', attempts: 2, leaseOwner: null });
    await first.runDue();
    expect(ran).toEqual(['second']);
  });

  it('claims only the kinds it handles', async () => {
    const queue = new JobQueue(database.db, silent, { clock, owner: 'a' });
    queue.handle('test.mine', async () => undefined);
    await enqueueJob(database.db, 'test.other', {}, { runAt: now });
    await queue.runDue();
    const [row] = await database.db.select().from(jobs);
    expect(row).toMatchObject({ status: 'queued', attempts: 0 });
  });
});

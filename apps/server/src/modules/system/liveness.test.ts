import { describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { testConfig, useTestApp } from '../../test/build-app';
import { openTestDatabase } from '../../test/test-database';
import { countStatements } from '../auth/auth-test-support';
import { Liveness } from './liveness';

describe('liveness for /healthz', () => {
  const ctx = useTestApp();

  it('asks the database once however often it is polled within a second', async () => {
    await ctx.app.inject({ method: 'GET', url: '/healthz' });
    const counter = countStatements(ctx.app.db);
    try {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => ctx.app.inject({ method: 'GET', url: '/healthz' })),
      );
      expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
      expect(counter.count).toBeLessThanOrEqual(1);
    } finally {
      counter.stop();
    }
  });

  it('stays truthful: within a second of the database going away, it answers 503', async () => {
    const config = testConfig();
    const database = await openTestDatabase();
    const app = await buildApp({ config, database, logger: false as never });
    try {
      await app.ready();
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      await database.close();
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const gone = await app.inject({ method: 'GET', url: '/healthz' });
      expect(gone.statusCode).toBe(503);
      expect(gone.json()).toEqual({ status: 'unavailable', database: database.kind });
    } finally {
      await app.close().catch(() => {});
    }
  });

  it('reuses an answer for a second, a failure too, and shares a probe under way', async () => {
    const clock = { now: 0 };
    let probes = 0;
    let failing = false;
    const liveness = new Liveness(
      async () => {
        probes += 1;
        if (failing) throw new Error('database gone');
      },
      1_000,
      () => clock.now,
    );
    expect(await Promise.all([liveness.check(), liveness.check()])).toEqual([true, true]);
    expect(probes).toBe(1);
    failing = true;
    clock.now = 999;
    expect(await liveness.check()).toBe(true);
    clock.now = 1_000;
    expect(await liveness.check()).toBe(false);
    expect(probes).toBe(2);
    failing = false;
    clock.now = 1_500;
    expect(await liveness.check()).toBe(false);
    clock.now = 2_000;
    expect(await liveness.check()).toBe(true);
    expect(probes).toBe(3);
  });
});

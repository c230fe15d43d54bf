import { describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { migrationsFolder } from '../../db/database-template';
import { testConfig, useTestApp } from '../../test/build-app';
import { openTestDatabase } from '../../test/test-database';
import { countStatements } from '../auth/auth-test-support';
import { startDeviceBroker } from '../ingest/device-broker';
import { Readiness, shippedMigrationCount } from './readiness';

describe('/readyz on an app', () => {
  const ctx = useTestApp();

  it('is ready when the database answers with every migration applied (no broker configured)', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', migrations: 'ok', mqtt: 'off' },
    });
  });

  it('asks the database once however often it is polled within a second', async () => {
    await ctx.app.inject({ method: 'GET', url: '/readyz' });
    const counter = countStatements(ctx.app.db);
    try {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => ctx.app.inject({ method: 'GET', url: '/readyz' })),
      );
      expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
      expect(counter.count).toBeLessThanOrEqual(1);
    } finally {
      counter.stop();
    }
  });
});

describe('/readyz when parts are missing', () => {
  it('answers 503 naming the database within a second of it closing, without a stack trace', async () => {
    const config = testConfig();
    const database = await openTestDatabase();
    const app = await buildApp({ config, database, logger: false as never });
    try {
      await app.ready();
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      await database.close();
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const gone = await app.inject({ method: 'GET', url: '/readyz' });
      expect(gone.statusCode).toBe(503);
      expect(gone.json()).toEqual({
        status: 'unavailable',
        notReady: ['database', 'migrations'],
        checks: { database: 'unavailable', migrations: 'unknown', mqtt: 'off' },
      });
      expect(gone.body).not.toMatch(/at .+\.ts:\d+/);
    } finally {
      await app.close().catch(() => {});
    }
  });

  it('waits for a configured broker until run-server attaches it, and follows its state', async () => {
    const config = testConfig({ mqttPort: 0 });
    const database = await openTestDatabase();
    const app = await buildApp({ config, database, logger: false as never });
    try {
      await app.ready();
      const starting = await app.inject({ method: 'GET', url: '/readyz' });
      expect(starting.statusCode).toBe(503);
      expect(starting.json()).toMatchObject({ notReady: ['mqtt'], checks: { mqtt: 'starting' } });
      // As run-server.ts does: the embedded broker, attached once it listens.
      const broker = await startDeviceBroker(app, 0, '127.0.0.1');
      app.readiness.attachBroker(() => broker.listening());
      expect((await app.inject({ method: 'GET', url: '/readyz' })).json()).toMatchObject({
        status: 'ready',
        checks: { mqtt: 'ok' },
      });
      await broker.close();
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect((await app.inject({ method: 'GET', url: '/readyz' })).json()).toMatchObject({
        status: 'unavailable',
        notReady: ['mqtt'],
        checks: { mqtt: 'down' },
      });
    } finally {
      await app.close().catch(() => {});
      await database.close();
    }
  });
});

describe('Readiness', () => {
  it('knows how many migrations this build ships', () => {
    expect(shippedMigrationCount(migrationsFolder)).toBeGreaterThan(10);
  });

  it('is not ready while the database lacks migrations; reuses an answer for a second', async () => {
    const clock = { now: 0 };
    let applied = 4;
    let probes = 0;
    const readiness = new Readiness(
      async () => {
        probes += 1;
        return applied;
      },
      5,
      false,
      1_000,
      () => clock.now,
    );
    const [first, second] = await Promise.all([readiness.check(), readiness.check()]);
    expect(first).toEqual({
      ready: false,
      notReady: ['migrations'],
      checks: { database: 'ok', migrations: 'pending', mqtt: 'off' },
    });
    expect(second).toBe(first);
    expect(probes).toBe(1);
    applied = 5;
    clock.now = 999;
    expect((await readiness.check()).ready).toBe(false);
    clock.now = 1_000;
    // A newer instance may have applied more migrations than this build knows: still ready.
    applied = 6;
    expect((await readiness.check()).ready).toBe(true);
    expect(probes).toBe(2);
  });

  it('a broker check that throws counts as down', async () => {
    const readiness = new Readiness(async () => 1, 1, true, 0);
    readiness.attachBroker(() => {
      throw new Error('no socket');
    });
    expect(await readiness.check()).toMatchObject({
      ready: false,
      notReady: ['mqtt'],
      checks: { mqtt: 'down' },
    });
  });
});

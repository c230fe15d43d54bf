import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { type BuildAppOptions, buildApp } from '../app';
import { type Database, openDatabase } from '../db/client';
import type { Config } from '../lib/config';
import { testConfig } from './build-app';
import { openPostgresTestDatabase } from './test-database';

export interface TwoInstances {
  databaseA: Database & { url: string };
  databaseB: Database;
  appA: FastifyInstance;
  appB: FastifyInstance;
}

/**
 * Two server instances on one PostgreSQL database, for tests of what crosses between instances
 * (LISTEN/NOTIFY, shared queues, shared files): a fresh database on the local server, whatever
 * the rest of the suite runs on; instance B has its own pool on it, as a second process would.
 * Opened before the file's tests and closed after them; the fields are set once they are open.
 */
export function useTwoInstances(
  options: {
    /** Each instance's settings (default: `testConfig` with a high login rate). */
    config?: (instance: 'A' | 'B') => Config;
    clock?: BuildAppOptions['clock'];
    /** Runs on the new database before the instances start. */
    prepare?: (database: Database) => Promise<unknown>;
    /** Runs once both instances have started (the file's fixtures). */
    started?: (instances: TwoInstances) => Promise<unknown>;
  } = {},
): TwoInstances {
  const instances = {} as TwoInstances;
  const configOf = options.config ?? (() => testConfig({ loginRateLimitPerMinute: 10_000 }));
  const start = async (database: Database, instance: 'A' | 'B') => {
    const app = await buildApp({
      config: configOf(instance),
      database,
      logger: false as never,
      clock: options.clock,
    });
    await app.ready();
    return app;
  };
  beforeAll(async () => {
    instances.databaseA = await openPostgresTestDatabase();
    await options.prepare?.(instances.databaseA);
    instances.appA = await start(instances.databaseA, 'A');
    instances.databaseB = await openDatabase({ url: instances.databaseA.url });
    instances.appB = await start(instances.databaseB, 'B');
    await options.started?.(instances);
  });
  afterAll(async () => {
    await instances.appB?.close();
    await instances.appA?.close();
    await instances.databaseB?.close();
    await instances.databaseA?.close();
  });
  return instances;
}

import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../app';
import type { Database } from '../db/client';
import { type Config, loadConfig } from '../lib/config';
import { ensureReadingPartitions } from '../modules/telemetry/partitions';
import { openTestDatabase } from './test-database';

export interface TestContext {
  app: FastifyInstance;
  database: Database;
  config: Config;
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({ LOG_LEVEL: 'silent', WEB_DIST: '/nonexistent' }),
    mqttPort: null,
    // Tests never write a key file into the data folder.
    secretKey: 'test-secret-key-0123456789abcdef0123456789abcdef',
    ...overrides,
  };
}

/**
 * One app on one fresh database for a test file (`const ctx = useTestApp()` at the top of a
 * describe block); closed after the file.
 */
export function useTestApp(overrides: Partial<Config> = {}, logger?: unknown): TestContext {
  const ctx = {} as TestContext;
  beforeAll(async () => {
    ctx.config = testConfig(overrides);
    ctx.database = await openTestDatabase();
    await ensureReadingPartitions(ctx.database.db);
    ctx.app = await buildApp({
      config: ctx.config,
      database: ctx.database,
      logger: (logger ?? false) as never,
    });
    await ctx.app.ready();
  });
  afterAll(async () => {
    await ctx.app?.close();
    await ctx.database?.close();
  });
  return ctx;
}

export interface CallOptions {
  token?: string;
  companyId?: string | number;
  language?: 'cn' | 'en';
  headers?: Record<string, string>;
}

/** POSTs a JSON body to an `/api` call the way the console does and returns the parsed envelope. */
export async function call<T = unknown>(
  app: FastifyInstance,
  url: string,
  body: unknown = {},
  options: CallOptions = {},
) {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    platform: '1',
    ...options.headers,
  };
  if (options.token) headers.accessToken = options.token;
  if (options.companyId !== undefined) headers.companyId = String(options.companyId);
  if (options.language) headers.language = options.language;
  const response = await app.inject({
    method: 'POST',
    url,
    headers,
    payload: JSON.stringify(body),
  } as InjectOptions);
  return {
    status: response.statusCode,
    body: response.json() as { msgCode: number; msgContent: string; data: T },
  };
}

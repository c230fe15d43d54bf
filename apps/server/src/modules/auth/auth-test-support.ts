import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { Db } from '../../db/client';
import { call } from '../../test/build-app';

interface QueryClient {
  query: (...args: unknown[]) => Promise<unknown>;
}

/**
 * Counts the statements sent to the database outside transactions (where the auth plugin's reads
 * and writes run), on either driver: drizzle sends them through its client's `query` (PGlite, or
 * node-postgres's pool). `stop()` puts the client back.
 */
export function countStatements(db: Db) {
  const client = (db as unknown as { $client: QueryClient }).$client;
  const original = client.query;
  const ownProperty = Object.hasOwn(client, 'query');
  const texts: string[] = [];
  client.query = function (this: unknown, ...args: unknown[]) {
    const text = args[0];
    texts.push(typeof text === 'string' ? text : String((text as { text?: string })?.text ?? text));
    return original.apply(client, args);
  };
  return {
    get count() {
      return texts.length;
    },
    texts,
    reset: () => {
      texts.length = 0;
    },
    stop: () => {
      if (ownProperty) client.query = original;
      else delete (client as Partial<QueryClient>).query;
    },
  };
}

/** The statements one call costs, with what was sent. */
export async function statementsOf(
  app: FastifyInstance,
  url: string,
  body: unknown,
  options: Parameters<typeof call>[3],
): Promise<{ count: number; texts: string[]; msgCode: number }> {
  const counter = countStatements(app.db);
  try {
    const { body: envelope } = await call(app, url, body, options);
    return { count: counter.count, texts: [...counter.texts], msgCode: envelope.msgCode };
  } finally {
    counter.stop();
  }
}

/** The caller's rights in the company in scope, as the console reads them. */
export async function powersOf(app: FastifyInstance, token: string, companyId?: number) {
  const { body } = await call<{ authTags: string[] }>(
    app,
    '/api/index/getUserPowers',
    {},
    { token, companyId },
  );
  return { msgCode: body.msgCode, tags: body.data?.authTags ?? [] };
}

/**
 * Asserts that the token's caller is now answered from the cache (a call costs no statement), so
 * a change made next is proven to reach the cache: without its invalidation, the following call
 * would still see the old rights. Loads in the moments after a change touching the caller are not
 * kept (auth-cache.ts, settleMs), hence a fresh fixture or a wait before this.
 */
export async function expectCached(app: FastifyInstance, token: string) {
  const url = '/api/index/getUserPowers';
  await statementsOf(app, url, {}, { token });
  const again = await statementsOf(app, url, {}, { token });
  expect(again.count, 'statements: the caller is answered from the cache').toBe(0);
}

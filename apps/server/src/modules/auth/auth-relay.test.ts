import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { type Database, openDatabase, queryRows } from '../../db/client';
import { hashToken } from '../../lib/tokens';
import { CALLER_CACHE_DEFAULTS } from '../../plugins/auth';
import { call, testConfig } from '../../test/build-app';
import { buildUser, login } from '../../test/factories';
import { openPostgresTestDatabase } from '../../test/test-database';
import { ensureReadingPartitions } from '../telemetry/partitions';
import { AuthCache } from './auth-cache';
import { AuthChangeBus } from './auth-changes';
import { AUTH_CHANNEL, PgAuthRelay } from './auth-relay';
import { callerDependsOn, loadSessionCaller, type SessionCaller } from './session-caller';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Two instances on one PostgreSQL database: instance A is a real app, instance B is a caller cache
 * on its own bus and pool, joined to A only by PostgreSQL (as a second process would be). A change
 * made through A must drop B's cached caller well before B's time to live ends.
 */
describe('auth changes between instances on PostgreSQL', () => {
  let databaseA: Database & { url: string };
  let databaseB: Database;
  let appA: FastifyInstance;
  const busB = new AuthChangeBus();
  let relayB: PgAuthRelay;
  let cacheB: AuthCache<SessionCaller>;

  beforeAll(async () => {
    databaseA = await openPostgresTestDatabase();
    await ensureReadingPartitions(databaseA.db);
    appA = await buildApp({
      config: testConfig({ loginRateLimitPerMinute: 10_000 }),
      database: databaseA,
      logger: false as never,
    });
    await appA.ready();
    databaseB = await openDatabase({ url: databaseA.url });
    relayB = new PgAuthRelay(databaseA.url, databaseB.db, appA.log);
    await relayB.start();
    busB.useRelay(relayB);
    cacheB = new AuthCache(callerDependsOn, { ...CALLER_CACHE_DEFAULTS, bus: busB });
  });
  afterAll(async () => {
    cacheB?.close();
    await relayB?.close();
    await appA?.close();
    await databaseB?.close();
    await databaseA?.close();
  });

  /** The backends listening for auth changes: A's and B's. */
  const listeners = async () =>
    (
      await queryRows<{ pid: number }>(
        databaseA.db,
        sql`select pid from pg_stat_activity
             where datname = current_database() and query = ${`listen ${AUTH_CHANNEL}`}`,
      )
    ).map((r) => r.pid);

  /** Instance B's view of a token, through its cache; `reads` counts its database reads. */
  function callerOnB(token: string) {
    const tokenHash = hashToken(token);
    let reads = 0;
    const get = () =>
      cacheB.get(tokenHash, () => {
        reads += 1;
        return loadSessionCaller(databaseB.db, tokenHash, Date.now());
      });
    return { get, reads: () => reads };
  }

  /** Waits for B to drop its entry, at most half of the time to live (so expiry cannot pass it). */
  async function droppedOnB(b: ReturnType<typeof callerOnB>, readsBefore: number) {
    const deadline = Date.now() + CALLER_CACHE_DEFAULTS.ttlMs / 2;
    while (Date.now() < deadline) {
      const caller = await b.get();
      if (b.reads() > readsBefore) return caller;
      await sleep(20);
    }
    throw new Error('instance B still answers from its cache');
  }

  it('the app listens on the auth channel', async () => {
    expect(appA.database.kind).toBe('postgres');
    expect(await listeners()).toHaveLength(2);
  });

  it('a logout on instance A ends the session on instance B at once', async () => {
    const user = await buildUser(databaseA.db);
    const token = await login(appA, user.account);
    const b = callerOnB(token);
    expect((await b.get())?.userId).toBe(user.id);
    expect((await b.get())?.userId).toBe(user.id);
    expect(b.reads()).toBe(1);
    expect((await call(appA, '/api/logout', {}, { token })).body.msgCode).toBe(200);
    expect(await droppedOnB(b, 1)).toBeNull();
  });

  it('after its LISTEN connection is lost, instance B drops every cached caller once it listens again', async () => {
    const user = await buildUser(databaseA.db);
    const token = await login(appA, user.account);
    const b = callerOnB(token);
    await b.get();
    await b.get();
    expect(b.reads()).toBe(1);
    // Both instances lose theirs; A's reconnecting does not reach B's cache, B's own does.
    await queryRows(
      databaseA.db,
      sql`select pg_terminate_backend(pid) from pg_stat_activity
           where datname = current_database() and query = ${`listen ${AUTH_CHANNEL}`}`,
    );
    const deadline = Date.now() + CALLER_CACHE_DEFAULTS.ttlMs - 500;
    while (b.reads() === 1 && Date.now() < deadline) {
      await b.get();
      await sleep(50);
    }
    expect(b.reads()).toBe(2);
    expect(await listeners()).toHaveLength(2);
  });
});

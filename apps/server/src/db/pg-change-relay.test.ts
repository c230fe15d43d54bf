import type { DeviceView, Page } from '@coldchain/contract';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { AUTH_CHANNEL } from '../modules/auth/auth-relay';
import { encode, LIVE_CHANNEL } from '../modules/live/live-relay';
import { call, testConfig } from '../test/build-app';
import { buildCompany, buildDevice, login } from '../test/factories';
import { statementsOf } from '../test/statement-log';
import { openPostgresTestDatabase } from '../test/test-database';
import { type Database, openDatabase, queryRows } from './client';
import { CHANGES_CHANNEL } from './pg-changes';
import { devices } from './schema';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => boolean, what: string, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

/**
 * Answers reused on PostgreSQL (lib/answer-cache.ts) with two instances on one database, as two
 * processes would run (its own fresh database on the local server, whatever the rest of the suite
 * runs on): what one instance changes ends the other's kept answers once its announcement arrives.
 */
describe('answers reused between instances on PostgreSQL', () => {
  let databaseA: Database & { url: string };
  let databaseB: Database;
  let appA: FastifyInstance;
  let appB: FastifyInstance;

  beforeAll(async () => {
    const config = testConfig({ loginRateLimitPerMinute: 10_000 });
    databaseA = await openPostgresTestDatabase();
    appA = await buildApp({ config, database: databaseA, logger: false as never });
    await appA.ready();
    databaseB = await openDatabase({ url: databaseA.url });
    appB = await buildApp({ config, database: databaseB, logger: false as never });
    await appB.ready();
  });
  afterAll(async () => {
    await appB?.close();
    await appA?.close();
    await databaseB?.close();
    await databaseA?.close();
  });

  /** A device of a new company, and its page as the company's admin sees it through instance B. */
  async function deviceSeenFromB(name: string) {
    const company = await buildCompany(appA.db);
    const device = await buildDevice(appA.db, company.id, { name });
    const token = await login(appB, company.admin.account);
    const names = async () =>
      (
        await call<Page<DeviceView>>(appB, '/api/device/pageDevices', { pageNum: 1 }, { token })
      ).body.data.list.map((d) => d.name);
    return { device, names };
  }

  /** The statements B runs for `work`, besides the read of who is calling. */
  async function statementsOnB(work: () => Promise<unknown>) {
    const { statements } = await statementsOf(appB.db, work);
    return statements.filter((text) => !text.includes("'sessionId', s.id"));
  }

  const changesB = () => databaseB.changes!;

  it('reuses an answer, and drops it when the other instance changes the database', async () => {
    const { device, names } = await deviceSeenFromB('Vaccine fridge');
    expect(await names()).toEqual(['Vaccine fridge']);
    // B now answers the same question without the database.
    expect(await statementsOnB(names)).toEqual([]);

    // A change written through A (its pool, as any of its services would): no live push, no auth
    // change, only A's announcement can tell B.
    const before = changesB().generation;
    await appA.db
      .update(devices)
      .set({ name: 'Insulin fridge' })
      .where(eq(devices.id, Number(device.id)));
    await until(() => changesB().generation > before, "A's announcement on B");
    expect(await names()).toEqual(['Insulin fridge']);
  });

  it('ignores its own announcements, which its own count already holds', async () => {
    const { names } = await deviceSeenFromB('Lab freezer');
    await names();
    const before = changesB().generation;
    // B's own change counts once, when it finishes; its announcement comes back to B too.
    await appB.db.execute(sql`update devices set remark = 'checked' where name = 'Lab freezer'`);
    expect(changesB().generation).toBe(before + 1);
    await sleep(200);
    expect(changesB().generation).toBe(before + 1);
  });

  it("moves the count on the other relays' messages: a live push or an auth change from another instance", async () => {
    let before = changesB().generation;
    const message = encode('another instance', { userIds: [0] }, { type: 'notice', bindContent: 'x' });
    await appA.db.execute(sql`select pg_notify(${LIVE_CHANNEL}, ${message})`);
    await until(() => changesB().generation > before, 'a live message from another instance');

    before = changesB().generation;
    const change = JSON.stringify({ o: 'another instance', c: { userId: 0 } });
    await appA.db.execute(sql`select pg_notify(${AUTH_CHANNEL}, ${change})`);
    await until(() => changesB().generation > before, 'an auth change from another instance');
  });

  it('computes every answer while it cannot hear the other instances, and reuses them again once it can', async () => {
    const { names } = await deviceSeenFromB('Blood bank');
    await names();
    expect(await statementsOnB(names)).toEqual([]);

    await queryRows(
      databaseA.db,
      sql`select pg_terminate_backend(pid) from pg_stat_activity
           where datname = current_database() and application_name = 'coldchain change relay'`,
    );
    await until(() => !changesB().complete, 'B to notice its lost connection');
    // A change announced now would never reach B: B asks the database every time.
    expect((await statementsOnB(names)).some((text) => text.includes('from "devices"'))).toBe(true);
    expect((await statementsOnB(names)).some((text) => text.includes('from "devices"'))).toBe(true);

    await until(() => changesB().complete, 'B listening again', 10_000);
    const listening = await queryRows<{ n: number }>(
      databaseA.db,
      sql`select count(*)::int as n from pg_stat_activity
           where datname = current_database() and application_name = 'coldchain change relay'
             and query like ${`listen ${CHANGES_CHANNEL}`}`,
    );
    expect(listening[0]!.n).toBeGreaterThanOrEqual(1);
    await names();
    expect(await statementsOnB(names)).toEqual([]);
  });
});

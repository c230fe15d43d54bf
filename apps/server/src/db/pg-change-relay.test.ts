import type { DeviceView, Page } from '@coldchain/contract';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { AUTH_CHANNEL } from '../modules/auth/auth-relay';
import { encode, LIVE_CHANNEL } from '../modules/live/live-relay';
import { call } from '../test/build-app';
import { buildCompany, buildDevice, login } from '../test/factories';
import { statementsOf } from '../test/statement-log';
import { useTwoInstances } from '../test/two-instances';
import { sleep, until } from '../test/until';
import { queryRows } from './client';
import { CHANGES_CHANNEL } from './pg-changes';
import { devices } from './schema';

/**
 * Answers reused on PostgreSQL (lib/answer-cache.ts) with two instances on one database, as two
 * processes would run (its own fresh database on the local server, whatever the rest of the suite
 * runs on): what one instance changes ends the other's kept answers once its announcement arrives.
 */
describe('answers reused between instances on PostgreSQL', () => {
  const two = useTwoInstances();

  /** A device of a new company, and its page as the company's admin sees it through instance B. */
  async function deviceSeenFromB(name: string) {
    const company = await buildCompany(two.appA.db);
    const device = await buildDevice(two.appA.db, company.id, { name });
    const token = await login(two.appB, company.admin.account);
    const names = async () =>
      (
        await call<Page<DeviceView>>(two.appB, '/api/device/pageDevices', { pageNum: 1 }, { token })
      ).body.data.list.map((d) => d.name);
    return { device, names };
  }

  /** The statements B runs for `work`, besides the read of who is calling. */
  async function statementsOnB(work: () => Promise<unknown>) {
    const { statements } = await statementsOf(two.appB.db, work);
    return statements.filter((text) => !text.includes("'sessionId', s.id"));
  }

  const changesB = () => two.databaseB.changes!;

  it('reuses an answer, and drops it when the other instance changes the database', async () => {
    const { device, names } = await deviceSeenFromB('Vaccine fridge');
    expect(await names()).toEqual(['Vaccine fridge']);
    // B now answers the same question without the database.
    expect(await statementsOnB(names)).toEqual([]);

    // A change written through A (its pool, as any of its services would): no live push, no auth
    // change, only A's announcement can tell B.
    const before = changesB().generation;
    await two.appA.db
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
    await two.appB.db.execute(sql`update devices set remark = 'checked' where name = 'Lab freezer'`);
    expect(changesB().generation).toBe(before + 1);
    await sleep(200);
    expect(changesB().generation).toBe(before + 1);
  });

  it("moves the count on the other relays' messages: a live push or an auth change from another instance", async () => {
    let before = changesB().generation;
    const message = encode('another instance', { userIds: [0] }, { type: 'notice', bindContent: 'x' });
    await two.appA.db.execute(sql`select pg_notify(${LIVE_CHANNEL}, ${message})`);
    await until(() => changesB().generation > before, 'a live message from another instance');

    before = changesB().generation;
    const change = JSON.stringify({ o: 'another instance', c: { userId: 0 } });
    await two.appA.db.execute(sql`select pg_notify(${AUTH_CHANNEL}, ${change})`);
    await until(() => changesB().generation > before, 'an auth change from another instance');
  });

  it('computes every answer while it cannot hear the other instances, and reuses them again once it can', async () => {
    const { names } = await deviceSeenFromB('Blood bank');
    await names();
    expect(await statementsOnB(names)).toEqual([]);

    await queryRows(
      two.databaseA.db,
      sql`select pg_terminate_backend(pid) from pg_stat_activity
           where datname = current_database() and application_name = 'coldchain change relay'`,
    );
    await until(() => !changesB().complete, 'B to notice its lost connection');
    // A change announced now would never reach B: B asks the database every time.
    expect((await statementsOnB(names)).some((text) => text.includes('from "devices"'))).toBe(true);
    expect((await statementsOnB(names)).some((text) => text.includes('from "devices"'))).toBe(true);

    await until(() => changesB().complete, 'B listening again');
    const listening = await queryRows<{ n: number }>(
      two.databaseA.db,
      sql`select count(*)::int as n from pg_stat_activity
           where datname = current_database() and application_name = 'coldchain change relay'
             and query like ${`listen ${CHANGES_CHANNEL}`}`,
    );
    expect(listening[0]!.n).toBeGreaterThanOrEqual(1);
    await names();
    expect(await statementsOnB(names)).toEqual([]);
  });
});

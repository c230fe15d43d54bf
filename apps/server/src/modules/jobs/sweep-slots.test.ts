import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../db/client';
import { openPostgresTestDatabase, openTestDatabase } from '../../test/test-database';
import { claimSweepSlot, sweepGate } from './sweep-slots';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Periodic sweeps run once per period across instances (issue 21 item 2): two instances on one
 * PostgreSQL database (two pools, as two processes) race for every period, and exactly one wins.
 */
describe('sweep slots', () => {
  let pgA: Database & { url: string };
  let pgB: Database;
  let embedded: Database;

  beforeAll(async () => {
    pgA = await openPostgresTestDatabase();
    pgB = await openDatabase({ url: pgA.url });
    embedded = await openTestDatabase();
  });
  afterAll(async () => {
    await pgB?.close();
    await pgA?.close();
    await embedded?.close();
  });

  it('gives each period of a sweep to exactly one of two instances racing for it', async () => {
    const everyMs = 400;
    const gateA = sweepGate(pgA.db, 'instance-a');
    const gateB = sweepGate(pgB.db, 'instance-b');
    const wins: string[][] = [];
    for (let round = 0; round < 5; round++) {
      // Start each round just after a period begins (the database runs on this machine's clock),
      // so its four claims fall in one period even on a busy machine.
      await sleep(everyMs - (Date.now() % everyMs) + 30);
      const [a, b, a2, b2] = await Promise.all([
        gateA('reminders', everyMs),
        gateB('reminders', everyMs),
        gateA('reminders', everyMs),
        gateB('reminders', everyMs),
      ]);
      wins.push([a && 'a', b && 'b', a2 && 'a', b2 && 'b'].filter(Boolean) as string[]);
    }
    // Each period got one winner, never two, never none.
    expect(wins.map((w) => w.length)).toEqual(Array(5).fill(1));
    // Another sweep's periods are its own.
    expect(await gateB('offline', everyMs)).toBe(true);
  });

  it('lets the other instance take the next periods when the first one stops ticking', async () => {
    const everyMs = 300;
    const nextPeriod = () => sleep(everyMs - (Date.now() % everyMs) + 30);
    await nextPeriod();
    expect(await claimSweepSlot(embedded.db, 'storage', 'a', everyMs)).toBe(true);
    expect(await claimSweepSlot(embedded.db, 'storage', 'b', everyMs)).toBe(false);
    // "a" died: "b" alone claims each later period, once.
    for (let round = 0; round < 3; round++) {
      await nextPeriod();
      expect(await claimSweepSlot(embedded.db, 'storage', 'b', everyMs)).toBe(true);
      expect(await claimSweepSlot(embedded.db, 'storage', 'b', everyMs)).toBe(false);
    }
  });
});

import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { useTestApp } from '../../test/build-app';
import { buildCompany, buildDevice } from '../../test/factories';
import type { CommittedEvent } from './ingest.service';

describe('device events stored together when they arrive together', () => {
  const ctx = useTestApp();

  async function site(size: number) {
    const company = await buildCompany(ctx.app.db);
    const built = await Promise.all(Array.from({ length: size }, () => buildDevice(ctx.app.db, company.id)));
    return Promise.all(built.map(async (d) => (await ctx.app.deviceDirectory.find(d.serial))!));
  }

  /** Runs `work` counting the statements that insert into device_events. */
  async function counting<T>(work: () => Promise<T>): Promise<{ result: T; inserts: number }> {
    const dialect = new PgDialect();
    let inserts = 0;
    const execute = ctx.app.db.execute;
    ctx.app.db.execute = ((query: SQL) => {
      if (dialect.sqlToQuery(query).sql.includes('insert into device_events')) inserts++;
      return execute.call(ctx.app.db, query);
    }) as typeof execute;
    try {
      return { result: await work(), inserts };
    } finally {
      ctx.app.db.execute = execute;
    }
  }

  it('a burst of power-offs: the first written at once, the rest in one statement, a repeat told so, each told once', async () => {
    const devices = await site(30);
    const t = Date.now() - 60_000;
    const told: CommittedEvent[] = [];
    const stop = ctx.app.ingest.onEvent((e) => {
      told.push(e);
    });
    try {
      const { result, inserts } = await counting(() =>
        Promise.all([
          ...devices.map((d) => ctx.app.ingest.recordEvent(d, { ts: t, event: 'powerOff' })),
          // The first device's message sent twice.
          ctx.app.ingest.recordEvent(devices[0]!, { ts: t, event: 'powerOff' }),
        ]),
      );
      expect(inserts).toBe(2);
      expect(result).toEqual([...devices.map(() => true), false]);
      // A repeat of an event stored before is a repeat too.
      expect(await ctx.app.ingest.recordEvent(devices[1]!, { ts: t, event: 'powerOff' })).toBe(false);
    } finally {
      stop();
    }
    expect(told.map((e) => e.deviceId).sort((a, b) => a - b)).toEqual(
      devices.map((d) => d.id).sort((a, b) => a - b),
    );
    expect(told.every((e) => e.ts === t && e.event === 'powerOff')).toBe(true);
    const [stored] = await queryRows<{ n: number }>(
      ctx.app.db,
      sql`select count(*)::int as n from device_events where device_id = any(${`{${devices.map((d) => d.id).join(',')}}`}::bigint[])`,
    );
    expect(stored!.n).toBe(30);
  });

  it('an event the database refuses fails alone; the others of its statement are stored', async () => {
    const devices = await site(5);
    const t = Date.now() - 60_000;
    const gone = { ...devices[0]!, id: 2_000_000_000 };
    const outcomes = await Promise.allSettled([
      ctx.app.ingest.recordEvent(devices[0]!, { ts: t, event: 'lowBattery' }),
      ...devices.slice(1).map((d) => ctx.app.ingest.recordEvent(d, { ts: t, event: 'lowBattery' })),
      ctx.app.ingest.recordEvent(gone, { ts: t, event: 'lowBattery' }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
    ]);
    expect(outcomes.slice(0, 5).every((o) => o.status === 'fulfilled' && o.value === true)).toBe(true);
  });
});

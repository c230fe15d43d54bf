import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { OrderView } from '@coldchain/contract';
import { PGlite } from '@electric-sql/pglite';
import { eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { buildCompany, buildDevice, login } from '../../test/factories';
import { approveOrder, rejectOrder } from './order-decisions';
import { approvedRecoveryPeriods } from './order-devices';
import { orderDevices } from './orders.table';

const DAY = 86_400_000;
const migrationsFolder = path.resolve(import.meta.dirname, '../../../drizzle');
const ORDER_DEVICES_MIGRATION = '0019_order_devices';

describe('the devices of each order', () => {
  const ctx = useTestApp();
  // Real past times: a recovery period must lie in the past when it is ordered.
  const at = (daysAgo: number) => Date.now() - daysAgo * DAY;

  async function placeOrder(token: string, url: string, body: Record<string, unknown>) {
    const placed = await call<OrderView>(ctx.app, url, body, { token });
    expect(placed.body.msgCode, placed.body.msgContent).toBe(200);
    return Number(placed.body.data.id);
  }

  it('records every device an order names, renewals included, when the order is placed', async () => {
    const company = await buildCompany(ctx.app.db);
    const [a, b] = [await buildDevice(ctx.app.db, company.id), await buildDevice(ctx.app.db, company.id)];
    const token = await login(ctx.app, company.admin.account);
    const renewal = await placeOrder(token, '/api/device/monitoringDevicePay', {
      deviceIds: [a.id, b.id],
      months: 1,
    });
    const rows = await ctx.app.db.select().from(orderDevices).where(eq(orderDevices.orderId, renewal));
    expect(rows.map((r) => [r.deviceId, r.companyId]).sort()).toEqual(
      [
        [Number(a.id), company.id],
        [Number(b.id), company.id],
      ].sort(),
    );
  });

  it('answers the periods of approved recovery orders only, per device named', async () => {
    const company = await buildCompany(ctx.app.db);
    const [a, b, other] = [
      await buildDevice(ctx.app.db, company.id),
      await buildDevice(ctx.app.db, company.id),
      await buildDevice(ctx.app.db, company.id),
    ];
    const token = await login(ctx.app, company.admin.account);
    const [ida, idb] = [Number(a.id), Number(b.id)];
    const recover = (ids: string[], from: number, to: number) =>
      placeOrder(token, '/api/device/monitoringDeviceRecovery', {
        deviceIds: ids,
        startTime: at(from),
        endTime: at(to),
      });
    const both = await recover([a.id, b.id], 90, 80);
    const onlyA = await recover([a.id], 50, 40);
    const rejected = await recover([a.id], 30, 20);
    await recover([b.id], 30, 20); // stays pending
    const otherDevice = await recover([other.id], 70, 60);
    const renewal = await placeOrder(token, '/api/device/monitoringDevicePay', {
      deviceIds: [a.id, b.id],
      months: 1,
    });
    for (const id of [both, onlyA, otherDevice, renewal]) await approveOrder(ctx.app.db, id);
    await rejectOrder(ctx.app.db, rejected);

    const periods = await approvedRecoveryPeriods(ctx.app.db, [ida, idb]);
    const asDays = periods
      .map((p) => [p.deviceId, Math.round((Date.now() - p.periodStart.getTime()) / DAY)] as const)
      .sort((x, y) => x[0] - y[0] || y[1] - x[1]);
    expect(asDays).toEqual([
      [ida, 90],
      [ida, 50],
      [idb, 90],
    ]);
    expect(periods.every((p) => p.periodEnd.getTime() > p.periodStart.getTime())).toBe(true);
    expect(await approvedRecoveryPeriods(ctx.app.db, [])).toEqual([]);
  });
});

describe('the order_devices migration', () => {
  it('fills order_devices from the lines of orders placed before it', async () => {
    // The migrations up to the one before order_devices, in a folder of their own.
    const before = mkdtempSync(path.join(tmpdir(), 'cc-migrations-'));
    const client = new PGlite();
    try {
      cpSync(migrationsFolder, before, { recursive: true });
      const journalPath = path.join(before, 'meta', '_journal.json');
      const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
      const cut = journal.entries.findIndex((e) => e.tag === ORDER_DEVICES_MIGRATION);
      expect(cut).toBeGreaterThan(0);
      writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, cut) }));
      const db = drizzle(client);
      await migrate(db, { migrationsFolder: before });

      const line = (deviceId: number) => ({ deviceId, serial: `S${deviceId}`, name: '', version: 'basic' });
      const {
        rows: [company],
      } = await client.query<{ id: number }>(`insert into companies (name) values ('Old') returning id`);
      const insertOrder = async (kind: string, lines: unknown[]) =>
        (
          await client.query<{ id: number }>(
            `insert into orders (company_id, kind, lines, months, amount_cents)
             values ($1, $2, $3, 1, 0) returning id`,
            [company!.id, kind, JSON.stringify(lines)],
          )
        ).rows[0]!.id;
      const renewal = await insertOrder('renewal', [line(11), line(12)]);
      // A device listed twice is indexed once.
      const recovery = await insertOrder('recovery', [line(12), line(12)]);

      await migrate(db, { migrationsFolder });
      const { rows } = await client.query<{ order_id: number; device_id: number; company_id: number }>(
        'select order_id, device_id, company_id from order_devices order by order_id, device_id',
      );
      expect(rows.map((r) => [Number(r.order_id), Number(r.device_id), Number(r.company_id)])).toEqual([
        [Number(renewal), 11, Number(company!.id)],
        [Number(renewal), 12, Number(company!.id)],
        [Number(recovery), 12, Number(company!.id)],
      ]);
    } finally {
      await client.close();
      rmSync(before, { recursive: true, force: true });
    }
    // Every migration from scratch, in two steps: slow on a busy machine.
  }, 120_000);
});

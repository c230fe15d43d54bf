import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { OrderStatus } from '@coldchain/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/client';
import { buildCompany, buildDevice } from '../../test/factories';
import { devices } from '../devices/devices.table';
import { createRecoveryOrder, createRenewalOrder } from './orders.service';
import { orders } from './orders.table';
import { parseTierPrices, type TierPrices } from './prices';

const admin = path.resolve(import.meta.dirname, '../../admin.ts');

function runAdmin(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', admin, ...args], {
      cwd: path.resolve(import.meta.dirname, '../../..'),
      env: { ...process.env, ...env },
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('npm run admin -- orders', () => {
  it('lists pending orders, approves a renewal (extending expiry) and rejects another', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cc-orders-'));
    const prices = {
      renewal: parseTierPrices('basic:10,standard:15,elite:20,premium:30') as TierPrices,
      recovery: parseTierPrices('basic:20,standard:30,elite:40,premium:50') as TierPrices,
    };
    let database = await openDatabase({ dataDir });
    const company = await buildCompany(database.db);
    const device = await buildDevice(database.db, company.id);
    const actor = { companyId: company.id, userId: company.admin.id, ip: '' };
    const scope = eq(devices.companyId, company.id);
    const renewal = await createRenewalOrder(database.db, actor, scope, prices, {
      deviceIds: [device.id],
      months: 6,
    });
    const recovery = await createRecoveryOrder(database.db, actor, scope, prices, {
      deviceIds: [device.id],
      startTime: Date.now() - 40 * 86_400_000,
      endTime: Date.now() - 86_400_000,
    });
    const [before] = await database.db
      .select()
      .from(devices)
      .where(eq(devices.id, Number(device.id)));
    await database.close();

    const list = await runAdmin(['orders', 'list'], { DATA_DIR: dataDir });
    expect(list.code).toBe(0);
    expect(list.output).toContain(
      `${renewal.orderNo}\tcompany ${company.id}\tpending\trenewal 6 month(s)\t1 device(s)\tRM 90.00`,
    );
    expect(list.output).toContain(`${recovery.orderNo}\tcompany ${company.id}\tpending\trecovery`);
    expect(list.output).toContain('(2 x 30 days)\t1 device(s)\tRM 60.00');

    const approve = await runAdmin(['orders', 'approve', renewal.id], { DATA_DIR: dataDir });
    expect(approve.output).toContain(`Order ${renewal.id} (${renewal.orderNo}) approved.`);
    const again = await runAdmin(['orders', 'approve', renewal.id], { DATA_DIR: dataDir });
    expect(again.code).toBe(1);
    expect(again.output).toContain('is not pending');
    const reject = await runAdmin(['orders', 'reject', recovery.id], { DATA_DIR: dataDir });
    expect(reject.output).toContain('rejected.');
    const usage = await runAdmin(['orders', 'approve', 'x'], { DATA_DIR: dataDir });
    expect(usage.code).toBe(2);
    expect(usage.output).toContain('npm run admin -- orders approve <id>');

    database = await openDatabase({ dataDir });
    try {
      const [after] = await database.db
        .select()
        .from(devices)
        .where(eq(devices.id, Number(device.id)));
      const expected = new Date(before!.expireTime);
      expected.setUTCMonth(expected.getUTCMonth() + 6);
      expect(after!.expireTime.getTime()).toBe(expected.getTime());
      const statuses = await database.db.select({ id: orders.id, status: orders.status }).from(orders);
      expect(statuses.sort((a, b) => a.id - b.id).map((s) => s.status)).toEqual([
        OrderStatus.Approved,
        OrderStatus.Rejected,
      ]);
    } finally {
      await database.close();
    }
  }, 240_000);
});

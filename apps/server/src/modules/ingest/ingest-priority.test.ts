import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/build-app';
import { buildCompany, buildDevice } from '../../test/factories';
import { IngestService } from './ingest.service';

describe('ingest order under load', () => {
  const ctx = useTestApp();

  it('writes a waiting message of a device that may alarm in its own transaction, ahead of the others', async () => {
    const company = await buildCompany(ctx.app.db);
    const [first, quiet, watched] = await Promise.all(
      [1, 2, 3].map(async () => {
        const device = await buildDevice(ctx.app.db, company.id);
        return (await ctx.app.deviceDirectory.find(device.serial))!;
      }),
    );
    const ingest = new IngestService(ctx.app.db);
    ingest.prioritise((job) => job.device.id === watched!.id);
    const batches: number[][] = [];
    ingest.onCommitted((readings) => {
      batches.push([...new Set(readings.map((r) => r.deviceId))]);
    });
    const at = Date.now() - 60_000;
    const message = (ts: number) => [{ ts, channels: [{ ch: 1, v: 5 }], mode: 'normal' as const }];
    // The first message starts a transaction at once; the next ones queue behind it.
    const results = await Promise.all([
      ingest.ingest(first!, message(at)),
      ingest.ingest(quiet!, message(at + 1)),
      ingest.ingest(quiet!, message(at + 2)),
      ingest.ingest(watched!, message(at + 3)),
    ]);
    expect(results.map((r) => r.stored)).toEqual([1, 1, 1, 1]);
    expect(batches).toEqual([[first!.id], [watched!.id], [quiet!.id]]);
  });

  it('keeps arrival order when every waiting message is urgent, or none is', async () => {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id);
    const known = (await ctx.app.deviceDirectory.find(device.serial))!;
    const ingest = new IngestService(ctx.app.db);
    const order: number[] = [];
    ingest.onCommitted((readings) => {
      order.push(...readings.map((r) => r.ts));
    });
    const at = Date.now() - 60_000;
    const send = (ts: number) => ingest.ingest(known, [{ ts, channels: [{ ch: 1, v: 5 }], mode: 'normal' }]);
    await Promise.all([send(at), send(at + 1), send(at + 2)]);
    ingest.prioritise(() => true);
    await Promise.all([send(at + 3), send(at + 4), send(at + 5)]);
    expect(order).toEqual([at, at + 1, at + 2, at + 3, at + 4, at + 5]);
  });

  it('reads as saturated while its transactions go back to back, and not once devices pause', async () => {
    const company = await buildCompany(ctx.app.db);
    const device = await buildDevice(ctx.app.db, company.id);
    const known = (await ctx.app.deviceDirectory.find(device.serial))!;
    const ingest = new IngestService(ctx.app.db);
    expect(ingest.busyShare()).toBe(0);
    // A flood: each answer brings the next message, 200 senders at once (more than a batch
    // gathers before it goes), for 1.3 s.
    let ts = Date.now() - 3_600_000;
    const until = performance.now() + 1_300;
    const sender = async () => {
      while (performance.now() < until)
        await ingest.ingest(known, [{ ts: ts++, channels: [{ ch: 1, v: 5 }], mode: 'normal' }]);
    };
    const flood = Promise.all(Array.from({ length: 200 }, sender));
    await new Promise((r) => setTimeout(r, 1_150));
    const during = ingest.busyShare();
    await flood;
    await new Promise((r) => setTimeout(r, 2_100));
    expect(during).toBeGreaterThan(0.5);
    expect(ingest.busyShare()).toBeLessThan(0.1);
  });
});

import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/build-app';
import { buildCompany, buildDevice } from '../../test/factories';
import type { KnownDevice } from './device-directory';
import { IngestService } from './ingest.service';

/** A long window, so what a test sees is the rule and not the machine's speed. */
const PACING = { lingerMs: 400, minBatch: 64, activeSenderMs: 1_000 };

describe('how ingest gathers messages into transactions', () => {
  const ctx = useTestApp();

  async function devices(count: number): Promise<KnownDevice[]> {
    const company = await buildCompany(ctx.app.db);
    const found: KnownDevice[] = [];
    for (let i = 0; i < count; i++) {
      const device = await buildDevice(ctx.app.db, company.id);
      found.push((await ctx.app.deviceDirectory.find(device.serial))!);
    }
    return found;
  }

  function recordBatches(ingest: IngestService) {
    const batches: number[] = [];
    ingest.onCommitted((readings) => {
      batches.push(readings.length);
    });
    return batches;
  }

  const reading = (ts: number) => [{ ts, channels: [{ ch: 1, v: 5 }], mode: 'normal' as const }];

  it('gathers a fleet trickling in, one message a device, into one transaction', async () => {
    const fleet = await devices(12);
    const ingest = new IngestService(ctx.app.db, undefined, PACING);
    const batches = recordBatches(ingest);
    const at = Date.now() - 60_000;
    // 8 ms apart: wider than any gap a sender waiting for its answer leaves, and the first
    // device has already been answered while the others come.
    const sent: Promise<unknown>[] = [];
    for (const [i, device] of fleet.entries()) {
      sent.push(ingest.ingest(device, reading(at + i)));
      await new Promise((r) => setTimeout(r, 8));
    }
    await Promise.all(sent);
    // The first message went alone (nobody else had sent); the eleven after it waited together.
    expect(batches).toEqual([1, 11]);
  });

  it('does not hold back devices that each wait for their answer before sending again', async () => {
    const senders = await devices(3);
    const ingest = new IngestService(ctx.app.db, undefined, PACING);
    const batches = recordBatches(ingest);
    const at = Date.now() - 3_600_000;
    const started = performance.now();
    await Promise.all(
      senders.map(async (device, d) => {
        for (let i = 0; i < 20; i++) await ingest.ingest(device, reading(at + i * 10 + d));
      }),
    );
    const elapsed = performance.now() - started;
    expect(batches.reduce((a, b) => a + b, 0)).toBe(60);
    // Twenty rounds held for the window would take eight seconds; each round goes once all
    // three devices are waiting.
    expect(elapsed).toBeLessThan(20 * PACING.lingerMs * 0.5);
    expect(batches.filter((size) => size === 3).length).toBeGreaterThanOrEqual(15);
  });

  it('does not hold back a gateway relaying its loggers one request at a time', async () => {
    const loggers = await devices(20);
    // A window of a second, so the waits outweigh the writes on a loaded machine.
    const pacing = { ...PACING, lingerMs: 1_000 };
    const ingest = new IngestService(ctx.app.db, undefined, pacing);
    const batches = recordBatches(ingest);
    const at = Date.now() - 60_000;
    const started = performance.now();
    // Each logger's message waits for the one before it to be answered: waiting for the other
    // recent senders gathers nothing, so after a few such waits (at the 2nd, 4th, 8th and 16th
    // message) the rest go at once. Held for the window each, the 20 would take 19 s.
    for (const device of loggers) await ingest.ingest(device, reading(at));
    const elapsed = performance.now() - started;
    expect(batches).toEqual(loggers.map(() => 1));
    expect(elapsed).toBeGreaterThan(3.5 * pacing.lingerMs);
    expect(elapsed).toBeLessThan(10 * pacing.lingerMs);
  }, 40_000);

  it('writes a lone device at once on a quiet server', async () => {
    const [device] = await devices(1);
    const ingest = new IngestService(ctx.app.db, undefined, PACING);
    const at = Date.now() - 60_000;
    const started = performance.now();
    for (let i = 0; i < 5; i++) await ingest.ingest(device!, reading(at + i));
    expect(performance.now() - started).toBeLessThan(PACING.lingerMs);
  });

  it('ends the wait when the batch is full', async () => {
    const fleet = await devices(5);
    const ingest = new IngestService(ctx.app.db, undefined, { ...PACING, lingerMs: 5_000, minBatch: 4 });
    const batches = recordBatches(ingest);
    const at = Date.now() - 60_000;
    await ingest.ingest(fleet[0]!, reading(at));
    const started = performance.now();
    // The first device may send again, so the others wait for it, until four are there.
    const sent: Promise<unknown>[] = [];
    for (const device of fleet.slice(1)) {
      sent.push(ingest.ingest(device, reading(at)));
      await new Promise((r) => setTimeout(r, 10));
    }
    await Promise.all(sent);
    expect(performance.now() - started).toBeLessThan(2_500);
    expect(batches).toEqual([1, 4]);
  });
});

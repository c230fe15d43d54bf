import { describe, expect, it } from 'vitest';
import { pushDeliveries } from './push-docking.table';
import { usePushFixture } from './push-fixture';

const waitFor = async (check: () => boolean, ms: number) => {
  const until = Date.now() + ms;
  while (!check() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  return check();
};

/**
 * While ingest is saturated the worker rests pauseFactor times a round's length between rounds
 * (at most 10 s); the rest ends as soon as ingest is no longer saturated, and at once on stop.
 */
describe('push worker rests', () => {
  // A huge factor: every rest is the 10 s cap, so what ends it early is what is tested.
  const { ctx, setUp, enabledAddress } = usePushFixture({ pauseFactor: 1_000_000 });

  async function addressWithTwoDeliveries() {
    const { post, device } = await setUp();
    const address = await enabledAddress(post, device.id);
    const body = (n: number) =>
      JSON.stringify({ deliveryId: String(n), event: 'deviceState', companyId: '1', time: n, items: [] });
    await ctx.app.db.insert(pushDeliveries).values([
      { urlId: Number(address.id), event: 'deviceState', body: body(1), items: 0 },
      { urlId: Number(address.id), event: 'deviceState', body: body(2), items: 0 },
    ]);
    return address;
  }

  it('sends the next round within a moment of ingest no longer being saturated', async () => {
    const { r } = await addressWithTwoDeliveries();
    let busy = 1;
    ctx.app.push.yieldTo(() => busy);
    const running = ctx.app.push.runDue();
    expect(await waitFor(() => r.received.length === 1, 5_000)).toBe(true);
    // Saturated: the second delivery (which waits for the first) stays in the rest.
    expect(await waitFor(() => r.received.length === 2, 1_000)).toBe(false);
    busy = 0;
    const ended = Date.now();
    expect(await waitFor(() => r.received.length === 2, 3_000)).toBe(true);
    expect(Date.now() - ended).toBeLessThan(2_000);
    await running;
    expect(r.received.map((d) => d.body.deliveryId)).toEqual(['1', '2']);
  });

  it('ends a rest at once when the worker stops', async () => {
    const { r } = await addressWithTwoDeliveries();
    ctx.app.push.yieldTo(() => 1);
    ctx.app.push.start();
    expect(await waitFor(() => r.received.length === 1, 5_000)).toBe(true);
    const stopping = Date.now();
    await ctx.app.push.stop();
    expect(Date.now() - stopping).toBeLessThan(1_000);
    expect(r.received).toHaveLength(1);
  });
});

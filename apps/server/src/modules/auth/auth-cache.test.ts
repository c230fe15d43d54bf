import { describe, expect, it } from 'vitest';
import { AuthCache } from './auth-cache';
import {
  type AuthChange,
  AuthChangeBus,
  type AuthChangeListener,
  type AuthChangeRelay,
} from './auth-changes';

/** A cached caller reduced to what the cache looks at: whose it is and the value read. */
interface Value {
  userId: number;
  read: number;
}

const dependsOn = (value: Value, change: AuthChange) => 'userId' in change && change.userId === value.userId;

function setUp(options: { ttlMs?: number; settleMs?: number } = {}) {
  const clock = { now: 1_000_000 };
  const bus = new AuthChangeBus();
  const cache = new AuthCache<Value>(dependsOn, {
    ttlMs: options.ttlMs ?? 5_000,
    settleMs: options.settleMs ?? 2_000,
    now: () => clock.now,
    bus,
  });
  let reads = 0;
  /** The database: every load reads it again. */
  const load = (userId: number) => async () => ({ userId, read: ++reads });
  return { clock, bus, cache, load, reads: () => reads };
}

describe('the auth cache', () => {
  it('answers from memory until the time to live ends, then reads again', async () => {
    const { clock, cache, load, reads } = setUp();
    expect(await cache.get('a', load(1))).toEqual({ userId: 1, read: 1 });
    clock.now += 4_999;
    expect(await cache.get('a', load(1))).toEqual({ userId: 1, read: 1 });
    clock.now += 1;
    expect(await cache.get('a', load(1))).toEqual({ userId: 1, read: 2 });
    expect(reads()).toBe(2);
  });

  it('drops what a change touches at once, and only that', async () => {
    const { clock, bus, cache, load } = setUp();
    await cache.get('a', load(1));
    await cache.get('b', load(2));
    clock.now += 10;
    bus.publish({ userId: 1 });
    expect((await cache.get('a', load(1)))?.read).toBe(3);
    expect((await cache.get('b', load(2)))?.read).toBe(2);
  });

  it('shares one load between concurrent misses of a key', async () => {
    const { cache, load, reads } = setUp();
    const answers = await Promise.all([
      cache.get('a', load(1)),
      cache.get('a', load(1)),
      cache.get('a', load(1)),
    ]);
    expect(answers.map((a) => a?.read)).toEqual([1, 1, 1]);
    expect(reads()).toBe(1);
  });

  it('does not keep a load that overlapped a change, nor one begun just after it (it may predate the commit)', async () => {
    const { clock, bus, cache } = setUp();
    let release!: () => void;
    const slow = () => new Promise<Value>((resolve) => (release = () => resolve({ userId: 1, read: 0 })));
    const overlapping = cache.get('a', slow);
    bus.publish({ userId: 1 });
    release();
    await overlapping;
    let reads = 0;
    const counted = async () => ({ userId: 1, read: ++reads });
    await cache.get('a', counted);
    await cache.get('a', counted);
    expect(reads).toBe(2);
    // After the settle window, loads are kept again.
    clock.now += 2_001;
    await cache.get('a', counted);
    await cache.get('a', counted);
    expect(reads).toBe(3);
  });

  it('does not hand a load begun before a change to a request that arrives after it', async () => {
    const { bus, cache } = setUp();
    let release!: () => void;
    const old = cache.get('a', () => new Promise<Value>((r) => (release = () => r({ userId: 1, read: 0 }))));
    bus.publish({ userId: 1 });
    const fresh = await cache.get('a', async () => ({ userId: 1, read: 1 }));
    expect(fresh?.read).toBe(1);
    release();
    expect((await old)?.read).toBe(0);
  });

  it('remembers nothing for an unknown key, and sweeps expired entries', async () => {
    const { clock, cache, load } = setUp();
    expect(await cache.get('nobody', async () => null)).toBeNull();
    expect(cache.size).toBe(0);
    await cache.get('a', load(1));
    await cache.get('b', load(2));
    clock.now += 6_000;
    await cache.get('c', load(3));
    expect(cache.size).toBe(1);
  });

  it('without a relay, another instance acts on a change only after its time to live', async () => {
    const here = setUp();
    const there = setUp();
    await there.cache.get('a', there.load(1));
    here.bus.publish({ userId: 1 });
    expect((await there.cache.get('a', there.load(1)))?.read).toBe(1);
    there.clock.now += 5_000;
    expect((await there.cache.get('a', there.load(1)))?.read).toBe(2);
  });

  it('with a relay, another instance drops the entry at once', async () => {
    const here = setUp();
    const there = setUp();
    const wire = new Set<AuthChangeListener>();
    /** An in-memory relay standing in for LISTEN/NOTIFY: what one instance sends, the others receive. */
    const relay = (): AuthChangeRelay => {
      let own: AuthChangeListener | null = null;
      return {
        send: (change) => {
          for (const deliver of wire) if (deliver !== own) deliver(change);
        },
        listen: (deliver) => {
          own = deliver;
          wire.add(deliver);
          return () => wire.delete(deliver);
        },
      };
    };
    here.bus.useRelay(relay());
    there.bus.useRelay(relay());
    await here.cache.get('a', here.load(1));
    await there.cache.get('a', there.load(1));
    here.bus.publish({ userId: 1 });
    expect((await here.cache.get('a', here.load(1)))?.read).toBe(2);
    expect((await there.cache.get('a', there.load(1)))?.read).toBe(2);
    there.bus.useRelay(null);
    expect(wire.size).toBe(1);
  });
});

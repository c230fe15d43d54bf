import { type AuthChange, type AuthChangeBus, authChanges } from './auth-changes';

export interface AuthCacheOptions {
  /**
   * How long a loaded value is used, counted from the moment its load began. It bounds how stale
   * a value can be when a change does not reach this instance (a relay down, a lost NOTIFY).
   */
  ttlMs: number;
  /**
   * A change may be reported inside its transaction, before the commit. A value whose load began
   * less than this before a change it depends on (or during it) is answered but not kept: on
   * PostgreSQL it may have read the rows from before the commit. Longer than the transactions
   * that report changes.
   */
  settleMs: number;
  now?: () => number;
  bus?: AuthChangeBus;
}

interface Entry<T> {
  value: T;
  loadedAt: number;
}

/**
 * The per-request work that does not change between requests (docs/performance.md, "Per-request
 * work"): values loaded once and used until their time to live ends or a change they depend on
 * is reported (auth-changes.ts), whichever comes first. Concurrent misses of one key share one
 * load. Unknown keys are not remembered, so a flood of wrong tokens costs what it did before.
 */
export class AuthCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly loading = new Map<string, { promise: Promise<T | null>; startedAt: number }>();
  private lastChangeAt = Number.NEGATIVE_INFINITY;
  /** Changes of the last `settleMs + ttlMs`, oldest first. */
  private recent: { change: AuthChange; at: number }[] = [];
  private lastSweep: number;
  private readonly now: () => number;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly dependsOn: (value: T, change: AuthChange) => boolean,
    private readonly options: AuthCacheOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.lastSweep = this.now();
    this.unsubscribe = (options.bus ?? authChanges).subscribe((change) => this.apply(change));
  }

  /** The cached value of `key`, or what `load` answers (null: nothing to keep). */
  get(key: string, load: () => Promise<T | null>): Promise<T | null> {
    const now = this.now();
    const entry = this.entries.get(key);
    if (entry && now - entry.loadedAt < this.options.ttlMs) return Promise.resolve(entry.value);
    if (entry) this.entries.delete(key);
    // Concurrent misses share a load, except one begun in the moments after a change: it may be
    // reading rows from before that change's commit, which a caller arriving after the commit
    // must not get.
    const pending = this.loading.get(key);
    if (pending && pending.startedAt - this.lastChangeAt >= this.options.settleMs) return pending.promise;
    const loaded: Promise<T | null> = this.load(key, load, now).finally(() => {
      if (this.loading.get(key)?.promise === loaded) this.loading.delete(key);
    });
    this.loading.set(key, { promise: loaded, startedAt: now });
    return loaded;
  }

  /** Drops one key (a value found unusable, an expired session). */
  forget(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  close(): void {
    this.unsubscribe();
    this.entries.clear();
    this.loading.clear();
  }

  private async load(key: string, load: () => Promise<T | null>, startedAt: number): Promise<T | null> {
    const value = await load();
    // A load slower than the time to live would be expired on arrival (and the changes it must be
    // checked against may be forgotten by now).
    const fresh = this.now() - startedAt < this.options.ttlMs;
    if (value !== null && fresh && !this.changedSince(value, startedAt)) {
      this.entries.set(key, { value, loadedAt: startedAt });
      this.sweep();
    }
    return value;
  }

  private changedSince(value: T, startedAt: number): boolean {
    const since = startedAt - this.options.settleMs;
    return this.recent.some(({ change, at }) => at >= since && this.touches(value, change));
  }

  private touches(value: T, change: AuthChange): boolean {
    return 'everyone' in change || this.dependsOn(value, change);
  }

  private apply(change: AuthChange): void {
    const now = this.now();
    for (const [key, entry] of this.entries) if (this.touches(entry.value, change)) this.entries.delete(key);
    // A load under way may have read the old rows; requests from now on start their own, and the
    // one under way is not kept (changedSince).
    this.loading.clear();
    this.lastChangeAt = now;
    // Kept as long as a load that may need them can still be stored (fresh, in load()).
    const keep = this.options.settleMs + this.options.ttlMs;
    this.recent = this.recent.filter(({ at }) => now - at < keep);
    this.recent.push({ change, at: now });
  }

  /** Expired entries go once per time to live, so tokens seen once do not pile up. */
  private sweep(): void {
    const now = this.now();
    if (now - this.lastSweep < this.options.ttlMs) return;
    this.lastSweep = now;
    for (const [key, entry] of this.entries) {
      if (now - entry.loadedAt >= this.options.ttlMs) this.entries.delete(key);
    }
  }
}

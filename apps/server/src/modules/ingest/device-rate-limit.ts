/**
 * A token bucket per device serial: `perMinute` tokens, refilled evenly over the minute, so a
 * device may burst up to a minute's allowance (a back-fill in chunks) and then keeps the pace.
 * One device flooding the platform is slowed without costing any other device anything.
 */
export class DeviceRateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private takes = 0;

  constructor(readonly perMinute: number) {}

  /** Takes one token for `serial`; false when its allowance is used up. */
  take(serial: string, now = Date.now()): boolean {
    if (++this.takes % 10_000 === 0) this.forgetIdle(now);
    const bucket = this.buckets.get(serial) ?? { tokens: this.perMinute, at: now };
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + ((now - bucket.at) * this.perMinute) / 60_000);
    bucket.at = now;
    this.buckets.set(serial, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  /** Milliseconds until `serial` has a token again (0: it has one now). */
  msUntilToken(serial: string, now = Date.now()): number {
    const bucket = this.buckets.get(serial);
    if (!bucket) return 0;
    const tokens = bucket.tokens + ((now - bucket.at) * this.perMinute) / 60_000;
    return tokens >= 1 ? 0 : Math.ceil(((1 - tokens) * 60_000) / this.perMinute);
  }

  /** A bucket refilled to the full allowance says nothing: dropping it bounds the map's size. */
  private forgetIdle(now: number) {
    for (const [serial, bucket] of this.buckets) {
      if (now - bucket.at >= 60_000) this.buckets.delete(serial);
    }
  }
}

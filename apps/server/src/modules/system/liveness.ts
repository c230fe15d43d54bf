/**
 * The database's liveness for `/healthz`, probed at most once per `reuseMs`: a load balancer, a
 * container runtime and a monitor polling together (or a load test) must not queue a statement per
 * poll behind ingest on the one embedded connection. Callers during a probe share it.
 */
export class Liveness {
  private last: { alive: boolean; at: number } | null = null;
  private probing: Promise<boolean> | null = null;

  constructor(
    private readonly probe: () => Promise<unknown>,
    private readonly reuseMs = 1_000,
    private readonly now: () => number = Date.now,
  ) {}

  check(): Promise<boolean> {
    if (this.last && this.now() - this.last.at < this.reuseMs) return Promise.resolve(this.last.alive);
    this.probing ??= this.probe().then(
      () => this.settle(true),
      () => this.settle(false),
    );
    return this.probing;
  }

  private settle(alive: boolean): boolean {
    this.last = { alive, at: this.now() };
    this.probing = null;
    return alive;
  }
}

/**
 * What changed that a cached caller may depend on (auth-cache.ts). Each kind names the key the
 * cache drops entries by:
 * - `sessionId`: one session ended (logout);
 * - `userId`: something of one person: their sessions ended (password change, recovery,
 *   cancellation), they were disabled, joined or left a company, switched the current company;
 * - `companyId`: roles, departments or members of a company changed; everyone in it is reloaded;
 * - `everyone`: changes may have been missed (the relay from other instances was down).
 */
export type AuthChange =
  | { sessionId: number }
  | { userId: number }
  | { companyId: number }
  | { everyone: true };

export type AuthChangeListener = (change: AuthChange) => void;

/**
 * How changes reach other server instances: on PostgreSQL, LISTEN/NOTIFY (auth-relay.ts); the
 * embedded database has one process and needs none.
 */
export interface AuthChangeRelay {
  /** Sends a change made here to the other instances. It must not throw; a lost message costs the TTL. */
  send(change: AuthChange): void;
  /** Starts handing the other instances' changes to `deliver`; returns the function that stops it. */
  listen(deliver: AuthChangeListener): () => void;
}

/**
 * The one place services report changes to. Delivery to this process's caches is synchronous, so
 * the next request after the call never sees the old rights.
 */
export class AuthChangeBus {
  private readonly listeners = new Set<AuthChangeListener>();
  private relay: AuthChangeRelay | null = null;
  private stopRelay: (() => void) | null = null;

  subscribe(listener: AuthChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(change: AuthChange): void {
    this.deliver(change);
    this.relay?.send(change);
  }

  /** Connects the instances (one relay at a time); null disconnects. */
  useRelay(relay: AuthChangeRelay | null): void {
    this.stopRelay?.();
    this.relay = relay;
    this.stopRelay = relay ? relay.listen((change) => this.deliver(change)) : null;
  }

  /** Disconnects `relay` if it is still the one in use (an app closing after another took over). */
  dropRelay(relay: AuthChangeRelay): void {
    if (this.relay === relay) this.useRelay(null);
  }

  private deliver(change: AuthChange): void {
    for (const listener of this.listeners) listener(change);
  }
}

/**
 * Process-wide, like the process's sockets: services report through `authChanged` without being
 * handed the app. Several apps in one process (tests) share it; one app's change then also drops
 * another's entries with the same id, which costs a reload and is never wrong.
 */
export const authChanges = new AuthChangeBus();

/**
 * Called once by every service call that changes what a cached caller holds: sessions, the
 * disabled flag, the current company, memberships, roles, departments. It may be called inside
 * the transaction that makes the change (auth-cache.ts keeps what it loads in the next moments
 * out of the cache, in case it read the rows before the commit).
 */
export function authChanged(change: AuthChange): void {
  authChanges.publish(change);
}

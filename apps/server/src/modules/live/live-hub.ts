import type { WebSocket } from 'ws';

/** Pushes of the live channel (API.md "Live channel"). */
export interface LiveMessage {
  type: 'alarm' | 'notice' | 'deviceState';
  bindContent: unknown;
}

/** Who a published message is for: the users, and the device it concerns (when it concerns one). */
export interface LiveTarget {
  userIds: number[];
  companyId?: number;
  deviceId?: number;
}

/** Carries published messages to the other instances (live-relay.ts); each pushes to its own sockets. */
export interface LiveRelay {
  send(target: LiveTarget, message: LiveMessage): Promise<void>;
}

/**
 * The sockets of this process, by user. In the embedded default every socket lives here; with
 * several instances on PostgreSQL a relay (LISTEN/NOTIFY, live-relay.ts) carries each published
 * message to the others, and this instance pushes to its own sockets itself.
 */
export class LiveHub {
  private readonly byUser = new Map<number, Set<WebSocket>>();
  private relay: LiveRelay | null = null;

  useRelay(relay: LiveRelay | null) {
    this.relay = relay;
  }

  /**
   * Sends to the users' sockets on every instance: here directly, elsewhere through the relay.
   * Returns how many sockets of this instance it reached.
   */
  async publish(target: LiveTarget, message: LiveMessage): Promise<number> {
    const sent = this.push(target.userIds, message);
    await this.relay?.send(target, message);
    return sent;
  }

  add(userId: number, socket: WebSocket) {
    let set = this.byUser.get(userId);
    if (!set) {
      set = new Set();
      this.byUser.set(userId, set);
    }
    set.add(socket);
    socket.once('close', () => {
      set.delete(socket);
      if (set.size === 0) this.byUser.delete(userId);
    });
  }

  /** Open sockets on this instance (read when metrics are scraped). */
  socketCount(): number {
    let count = 0;
    for (const set of this.byUser.values()) count += set.size;
    return count;
  }

  /** Sends to every open socket of the given users on this instance only; returns how many it reached. */
  push(userIds: Iterable<number>, message: LiveMessage): number {
    const text = JSON.stringify(message);
    let sent = 0;
    for (const userId of userIds) {
      for (const socket of this.byUser.get(userId) ?? []) {
        if (socket.readyState === socket.OPEN) {
          socket.send(text);
          sent++;
        }
      }
    }
    return sent;
  }

  connectedUsers(): number {
    return this.byUser.size;
  }

  closeAll() {
    for (const set of this.byUser.values())
      for (const socket of set) socket.close(1001, 'server shutting down');
    this.byUser.clear();
  }
}

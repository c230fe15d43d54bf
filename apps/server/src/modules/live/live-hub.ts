import type { WebSocket } from 'ws';

/** Pushes of the live channel (API.md "Live channel"). */
export interface LiveMessage {
  type: 'alarm' | 'notice' | 'deviceState';
  bindContent: unknown;
}

/**
 * The sockets of this process, by user. In the embedded default every socket lives here; with
 * several instances the fan-out between them goes through PostgreSQL LISTEN/NOTIFY (alarms issue).
 */
export class LiveHub {
  private readonly byUser = new Map<number, Set<WebSocket>>();

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

  /** Sends to every open socket of the given users; returns how many sockets it reached. */
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

import type { AlarmType } from '@coldchain/contract';

/** The alarm push of the live channel (shared API.md "Live channel", docs/API.md). */
export interface LiveAlarm {
  alarmTime: number;
  alarmType: AlarmType | string;
  groupName?: string | null;
  deviceName: string;
  deviceSerial: string;
  deviceId: string;
  channelName?: string | null;
  objectName?: string | null;
  alarmContent: { cn: string; en: string };
  alarmId?: string;
  level?: number;
  count?: number;
  /** Found in data received late: seconds between the reading and its arrival (absent when live). */
  lateBySeconds?: number;
}

/** Spec section 9: reconnect after 5 seconds. */
export const RECONNECT_DELAY_MS = 5_000;
/** The server closes with this code when the bind token is missing or bad. */
export const CLOSE_UNAUTHORIZED = 4401;
/** Spec section 7: bindType 2 binds a console session by its access token. */
export const BIND_TYPE_TOKEN = 2;

export interface LiveSocketOptions {
  url: string;
  /** Read at every (re)connection, so a new login is picked up. */
  token: () => string | null;
  onAlarm: (alarm: LiveAlarm) => void;
  /** Other pushes (`notice`, `deviceState`). */
  onMessage?: (type: string, content: unknown) => void;
  /** 'bound' once the server accepted the token; 'closed' while down or stopped. */
  onStatus?: (status: LiveStatus) => void;
  reconnectMs?: number;
}

export type LiveStatus = 'connecting' | 'bound' | 'closed';

/** ws(s)://<host>/api/ws of the page's own origin. */
export function liveSocketUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/ws`;
}

/**
 * The live alarm channel (spec section 4): connects on `start`, binds with the token, and after
 * an error or a close reconnects after 5 seconds with at most one reconnect pending. A 4401 close
 * (bad token) does not loop: the request wrapper handles the login expiry. `stop` (logout,
 * layout gone) closes it for good.
 */
export class LiveSocket {
  private socket: WebSocket | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running = false;

  constructor(private readonly options: LiveSocketOptions) {}

  get reconnectPending(): boolean {
    return this.timer !== null;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.connect();
  }

  stop(): void {
    this.running = false;
    this.clearTimer();
    this.drop();
    this.options.onStatus?.('closed');
  }

  private connect(): void {
    const token = this.options.token();
    if (!token) {
      this.running = false;
      return;
    }
    let socket: WebSocket;
    try {
      socket = new WebSocket(this.options.url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    this.options.onStatus?.('connecting');
    socket.onopen = () => {
      socket.send(JSON.stringify({ bindType: BIND_TYPE_TOKEN, bindContent: token }));
    };
    socket.onmessage = (event: MessageEvent) => this.receive(event.data);
    socket.onerror = () => {
      if (this.socket === socket) this.scheduleReconnect();
    };
    socket.onclose = (event: CloseEvent) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.options.onStatus?.('closed');
      if (event.code === CLOSE_UNAUTHORIZED) {
        // The token is no longer good: no loop; the next call the page makes meets msgCode 311.
        this.clearTimer();
        this.running = false;
        return;
      }
      this.scheduleReconnect();
    };
  }

  private receive(raw: unknown): void {
    if (typeof raw !== 'string') return;
    let message: { type?: unknown; bindContent?: unknown };
    try {
      message = JSON.parse(raw);
    } catch {
      return;
    }
    if (typeof message?.type !== 'string') return;
    if (message.type === 'alarm' && message.bindContent && typeof message.bindContent === 'object') {
      this.options.onAlarm(message.bindContent as LiveAlarm);
    } else if (message.type === 'bind') {
      this.options.onStatus?.('bound');
    } else {
      this.options.onMessage?.(message.type, message.bindContent);
    }
  }

  /** One reconnect at a time: an error followed by its close schedules it once. */
  private scheduleReconnect(): void {
    if (!this.running || this.timer !== null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (!this.running) return;
      this.drop();
      this.connect();
    }, this.options.reconnectMs ?? RECONNECT_DELAY_MS);
  }

  private clearTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Closes the current socket without letting its events schedule anything. */
  private drop(): void {
    const socket = this.socket;
    this.socket = null;
    if (!socket) return;
    socket.onopen = null;
    socket.onmessage = null;
    socket.onerror = null;
    socket.onclose = null;
    if (socket.readyState === WebSocket.CONNECTING || socket.readyState === WebSocket.OPEN) {
      try {
        socket.close(1000);
      } catch {
        // already closing
      }
    }
  }
}

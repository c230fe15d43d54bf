/**
 * A stand-in for the browser's WebSocket in unit tests (the live channel is outside the
 * server fakes). Every instance is kept so tests can open, push to and close it.
 */
export class FakeWebSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  static instances: FakeWebSocket[] = [];

  readonly CONNECTING = 0;
  readonly OPEN = 1;
  readonly CLOSING = 2;
  readonly CLOSED = 3;
  readyState = FakeWebSocket.CONNECTING;
  sent: string[] = [];
  closedWith: number | null = null;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;

  constructor(readonly url: string) {
    FakeWebSocket.instances.push(this);
  }

  static reset(): void {
    FakeWebSocket.instances = [];
  }

  static last(): FakeWebSocket {
    const socket = FakeWebSocket.instances.at(-1);
    if (!socket) throw new Error('no socket was opened');
    return socket;
  }

  send(data: string): void {
    this.sent.push(data);
  }

  close(code = 1000): void {
    this.closedWith = code;
    this.readyState = FakeWebSocket.CLOSED;
  }

  // Server side of the fake.
  serverOpen(): void {
    this.readyState = FakeWebSocket.OPEN;
    this.onopen?.(new Event('open'));
  }

  serverSend(message: unknown): void {
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(message) }));
  }

  serverError(): void {
    this.onerror?.(new Event('error'));
  }

  serverClose(code = 1006): void {
    this.readyState = FakeWebSocket.CLOSED;
    this.onclose?.({ code, reason: '', wasClean: code === 1000 } as CloseEvent);
  }
}

/** An HTMLAudioElement stand-in that records play and pause. */
export class FakeAudio {
  static instances: FakeAudio[] = [];
  loop = false;
  currentTime = 0;
  playing = false;
  plays = 0;

  constructor(readonly src: string) {
    FakeAudio.instances.push(this);
  }

  static reset(): void {
    FakeAudio.instances = [];
  }

  play(): Promise<void> {
    this.playing = true;
    this.plays++;
    return Promise.resolve();
  }

  pause(): void {
    this.playing = false;
  }
}

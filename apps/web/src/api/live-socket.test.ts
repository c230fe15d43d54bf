import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeWebSocket } from '../test/fake-websocket';
import { type LiveAlarm, LiveSocket, liveSocketUrl, RECONNECT_DELAY_MS } from './live-socket';

const URL = 'ws://console.test/api/ws';

function manager(token: () => string | null = () => 'token-1') {
  const alarms: LiveAlarm[] = [];
  const socket = new LiveSocket({ url: URL, token, onAlarm: (a) => alarms.push(a) });
  return { socket, alarms };
}

beforeEach(() => {
  vi.useFakeTimers();
  FakeWebSocket.reset();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('live socket', () => {
  it('derives ws or wss from the page origin', () => {
    expect(liveSocketUrl({ protocol: 'http:', host: 'a.test:8080' })).toBe('ws://a.test:8080/api/ws');
    expect(liveSocketUrl({ protocol: 'https:', host: 'a.test' })).toBe('wss://a.test/api/ws');
  });

  it('binds with the access token once open and hands alarm pushes over', () => {
    const alarms: LiveAlarm[] = [];
    const statuses: string[] = [];
    const socket = new LiveSocket({
      url: URL,
      token: () => 'token-1',
      onAlarm: (a) => alarms.push(a),
      onStatus: (s) => statuses.push(s),
    });
    socket.start();
    const ws = FakeWebSocket.last();
    expect(ws.url).toBe(URL);
    expect(ws.sent).toEqual([]);
    ws.serverOpen();
    expect(JSON.parse(ws.sent[0]!)).toEqual({ bindType: 2, bindContent: 'token-1' });
    ws.serverSend({ type: 'bind', bindContent: { ok: true } });
    ws.serverSend({ type: 'notice', bindContent: {} });
    ws.serverSend({ type: 'alarm', bindContent: { alarmId: '9', deviceSerial: 'SIM1007' } });
    expect(alarms).toEqual([{ alarmId: '9', deviceSerial: 'SIM1007' }]);
    expect(statuses).toEqual(['connecting', 'bound']);
    socket.stop();
    expect(statuses.at(-1)).toBe('closed');
  });

  it('reconnects exactly 5 s after an error and its close, with one reconnect pending', () => {
    const { socket } = manager();
    socket.start();
    const first = FakeWebSocket.last();
    first.serverOpen();
    first.serverError();
    first.serverClose(1006);
    first.serverError();
    expect(socket.reconnectPending).toBe(true);
    vi.advanceTimersByTime(RECONNECT_DELAY_MS - 1);
    expect(FakeWebSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeWebSocket.instances).toHaveLength(2);
    expect(socket.reconnectPending).toBe(false);
    // Nothing else was queued by the second and third events.
    vi.advanceTimersByTime(RECONNECT_DELAY_MS * 4);
    expect(FakeWebSocket.instances).toHaveLength(2);

    // The new socket binds again and, when it drops too, comes back once more after 5 s.
    const second = FakeWebSocket.last();
    second.serverOpen();
    expect(JSON.parse(second.sent[0]!).bindContent).toBe('token-1');
    second.serverClose(1001);
    vi.advanceTimersByTime(RECONNECT_DELAY_MS);
    expect(FakeWebSocket.instances).toHaveLength(3);
    socket.stop();
  });

  it('does not loop after a 4401 close (bad token)', () => {
    const { socket } = manager();
    socket.start();
    const ws = FakeWebSocket.last();
    ws.serverOpen();
    ws.serverClose(4401);
    expect(socket.reconnectPending).toBe(false);
    vi.advanceTimersByTime(60_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it('a 4401 after an error cancels the reconnect the error queued', () => {
    const { socket } = manager();
    socket.start();
    const ws = FakeWebSocket.last();
    ws.serverError();
    ws.serverClose(4401);
    vi.advanceTimersByTime(60_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it('stop (logout) closes the socket and drops a pending reconnect', () => {
    const { socket } = manager();
    socket.start();
    const ws = FakeWebSocket.last();
    ws.serverOpen();
    socket.stop();
    expect(ws.closedWith).toBe(1000);

    socket.start();
    FakeWebSocket.last().serverClose(1006);
    expect(socket.reconnectPending).toBe(true);
    socket.stop();
    vi.advanceTimersByTime(60_000);
    expect(FakeWebSocket.instances).toHaveLength(2);
  });

  it('does not connect without a token, and reconnects with the newest token', () => {
    let token: string | null = null;
    const { socket } = manager(() => token);
    socket.start();
    expect(FakeWebSocket.instances).toHaveLength(0);
    token = 'a';
    socket.start();
    FakeWebSocket.last().serverClose(1006);
    token = 'b';
    vi.advanceTimersByTime(RECONNECT_DELAY_MS);
    const ws = FakeWebSocket.last();
    ws.serverOpen();
    expect(JSON.parse(ws.sent[0]!).bindContent).toBe('b');
    socket.stop();
  });
});

import type { ScreenAlarm } from '@coldchain/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeWebSocket } from '../../test/fake-websocket';
import { addPushed, Backoff, mergeAlarms, openScreenSocket, prunePushed } from './screen-live';

const alarm = (id: string, alarmTime: number): ScreenAlarm => ({
  id,
  deviceId: '1',
  deviceName: 'Fridge',
  deviceSerial: 'S1',
  departmentName: '',
  sensorId: null,
  channelName: null,
  alarmType: 'overLimit',
  level: 1,
  alarmTime,
  content: { en: 'x', cn: 'x' },
  count: 1,
  lastValue: null,
});

afterEach(() => {
  vi.useRealTimers();
  localStorage.clear();
});

describe('reconnecting with backoff', () => {
  it('waits 5 s, then twice as long each time up to a minute, and starts over once bound', () => {
    const backoff = new Backoff(5_000, 60_000, () => 1);
    expect([1, 2, 3, 4, 5, 6].map(() => backoff.next())).toEqual([
      5_000, 10_000, 20_000, 40_000, 60_000, 60_000,
    ]);
    backoff.reset();
    expect(backoff.next()).toBe(5_000);
    // Jitter takes up to a fifth off, never adds.
    const jittered = new Backoff(5_000, 60_000, () => 0);
    expect(jittered.next()).toBe(4_000);
  });

  it('reopens the live socket after a drop with growing pauses, and reports a rebind', () => {
    vi.useFakeTimers();
    localStorage.setItem('accessToken', 't');
    const onRebound = vi.fn();
    const statuses: string[] = [];
    const socket = openScreenSocket(
      { onAlarm: vi.fn(), onOtherPush: vi.fn(), onStatus: (s) => statuses.push(s), onRebound },
      new Backoff(5_000, 60_000, () => 1),
    );
    const first = FakeWebSocket.last();
    first.serverOpen();
    first.serverSend({ type: 'bind', bindContent: null });
    expect(onRebound).not.toHaveBeenCalled();
    first.serverClose(1006);
    vi.advanceTimersByTime(4_999);
    expect(FakeWebSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeWebSocket.instances).toHaveLength(2);
    // The server is still down: the next pause is 10 s.
    FakeWebSocket.last().serverClose(1006);
    vi.advanceTimersByTime(9_999);
    expect(FakeWebSocket.instances).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(FakeWebSocket.instances).toHaveLength(3);
    const third = FakeWebSocket.last();
    third.serverOpen();
    third.serverSend({ type: 'bind', bindContent: null });
    expect(onRebound).toHaveBeenCalledTimes(1);
    expect(statuses.at(-1)).toBe('bound');
    // Bound again: the pause starts over at 5 s.
    third.serverClose(1006);
    vi.advanceTimersByTime(5_000);
    expect(FakeWebSocket.instances).toHaveLength(4);
    socket.stop();
    vi.advanceTimersByTime(120_000);
    expect(FakeWebSocket.instances).toHaveLength(4);
  });
});

describe('the alarm list', () => {
  it('merges pushes and the paint newest first, each alarm once, at most 50', () => {
    let pushed = addPushed([], alarm('2', 200), 1_000);
    pushed = addPushed(pushed, { ...alarm('2', 200), count: 3 }, 1_001);
    expect(pushed).toHaveLength(1);
    expect(mergeAlarms(pushed, [alarm('2', 200), alarm('1', 100)]).map((a) => [a.id, a.count])).toEqual([
      ['2', 3],
      ['1', 1],
    ]);
    for (let i = 0; i < 100; i++) pushed = addPushed(pushed, alarm(`p${i}`, 1_000 + i), 2_000 + i);
    expect(pushed).toHaveLength(50);
    expect(mergeAlarms(pushed, [alarm('1', 100)])).toHaveLength(50);
  });

  it('drops the pushes a paint contains: those received before its request left', () => {
    const pushed = [
      { alarm: alarm('a', 1), receivedAt: 1_000 },
      { alarm: alarm('b', 2), receivedAt: 3_000 },
    ];
    expect(prunePushed(pushed, 2_000).map((p) => p.alarm.id)).toEqual(['b']);
  });
});

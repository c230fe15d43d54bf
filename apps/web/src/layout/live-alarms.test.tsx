import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../i18n';
import { alarmRecord, livePush } from '../pages/alarms/test-fixtures';
import { stubServer } from '../test/fake-server';
import { FakeAudio, FakeWebSocket } from '../test/fake-websocket';
import { currentLocation, renderApp, resetBrowserState } from '../test/render-app';

function serve(user: { pcAlarmVoice?: boolean } = {}) {
  return stubServer({
    user: { id: '7', ...user },
    overrides: {
      '/api/alarm/pageAlarms': () => ({ list: [alarmRecord()], total: 1, pageNum: 1, pageSize: 20 }),
      '/api/alarm/alarmDetail': () => alarmRecord(),
    },
  });
}

/**
 * Notifications on screen: jsdom never ends antd's leave animation, so a closed notification
 * stays in the DOM marked as leaving.
 */
function shownNotices(): HTMLElement[] {
  return screen
    .queryAllByTestId('alarm-notice')
    .filter((n) => !n.closest('.ant-notification-notice')?.className.includes('fade-leave'));
}

/** Opens the console and the live socket's server side. */
async function openConsole(path = '/home') {
  const view = renderApp(path);
  await screen.findByTestId('page-title');
  await waitFor(() => expect(FakeWebSocket.instances.length).toBeGreaterThan(0));
  const ws = FakeWebSocket.last();
  act(() => ws.serverOpen());
  return { ...view, ws };
}

beforeEach(async () => {
  resetBrowserState();
  localStorage.setItem('accessToken', 't');
  await i18n.changeLanguage('en');
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('live alarms in the layout', () => {
  it('opens the socket at layout start, binds with the token, and shows a pushed alarm', async () => {
    serve();
    const { ws } = await openConsole();
    expect(ws.url).toMatch(/^ws:\/\/.+\/api\/ws$/);
    expect(JSON.parse(ws.sent[0]!)).toEqual({ bindType: 2, bindContent: 't' });
    act(() => ws.serverSend(livePush({ channelName: 'Probe 1', deviceSerial: 'SIM1007' })));
    const notice = await screen.findByTestId('alarm-notice');
    expect(notice).toHaveTextContent('Vaccine fridge 1 (SIM1007)');
    expect(notice).toHaveTextContent('Probe 1');
    expect(notice).toHaveTextContent('Temperature above the limit');
    expect(screen.getByTestId('alarm-notice-type')).toHaveTextContent('Over-limit alarm');
    await userEvent.click(screen.getByTestId('alarm-notice-link'));
    await waitFor(() => expect(currentLocation.path).toBe('/alarm/alarmInfo/alarmDetail?id=101'));
  });

  it('uses the Chinese text and type label in Chinese', async () => {
    serve();
    await i18n.changeLanguage('zh-CN');
    const { ws } = await openConsole();
    act(() => ws.serverSend(livePush({ alarmType: 'powerOff' })));
    expect(await screen.findByTestId('alarm-notice')).toHaveTextContent('温度超上限');
    expect(screen.getByTestId('alarm-notice-type')).toHaveTextContent('断电报警');
  });

  it('marks an alarm found in data received late with the delay, and a live one not', async () => {
    serve();
    const { ws } = await openConsole();
    act(() => ws.serverSend(livePush({ deviceSerial: 'LIVE1' })));
    await screen.findByTestId('alarm-notice');
    expect(screen.queryByTestId('alarm-notice-late')).toBeNull();
    act(() => ws.serverSend(livePush({ deviceSerial: 'LATE1', lateBySeconds: 3600 })));
    expect(await screen.findByTestId('alarm-notice-late')).toHaveTextContent(
      'Found in data received late (1 h late)',
    );
  });

  it('keeps at most 3 notifications on screen, closing the oldest first', async () => {
    serve();
    const { ws } = await openConsole();
    for (const serial of ['A1', 'A2', 'A3', 'A4', 'A5']) {
      act(() => ws.serverSend(livePush({ deviceSerial: serial, alarmId: serial })));
    }
    await waitFor(() => {
      const ids = shownNotices().map((n) => n.getAttribute('data-alarm-id'));
      expect(ids.sort()).toEqual(['A3', 'A4', 'A5']);
    });
  });

  it('closes a notification after 5 seconds', async () => {
    serve();
    const { ws } = await openConsole();
    vi.useFakeTimers({ shouldAdvanceTime: true });
    act(() => ws.serverSend(livePush()));
    expect(await screen.findByTestId('alarm-notice')).toBeInTheDocument();
    await act(async () => vi.advanceTimersByTime(4_000));
    expect(shownNotices()).toHaveLength(1);
    await act(async () => vi.advanceTimersByTime(2_500));
    await waitFor(() => expect(shownNotices()).toHaveLength(0));
  });

  it('plays the alarm sound for 5 seconds only when pcAlarmVoice is on', async () => {
    serve({ pcAlarmVoice: true });
    const { ws } = await openConsole();
    vi.useFakeTimers({ shouldAdvanceTime: true });
    act(() => ws.serverSend(livePush()));
    await screen.findByTestId('alarm-notice');
    const audio = FakeAudio.instances[0]!;
    expect(audio.src).toBe('/alarm.wav');
    expect(audio.loop).toBe(true);
    expect(audio.playing).toBe(true);
    act(() => vi.advanceTimersByTime(4_900));
    expect(audio.playing).toBe(true);
    act(() => vi.advanceTimersByTime(200));
    expect(audio.playing).toBe(false);
  });

  it('stays silent when pcAlarmVoice is off', async () => {
    serve({ pcAlarmVoice: false });
    const { ws } = await openConsole();
    act(() => ws.serverSend(livePush()));
    await screen.findByTestId('alarm-notice');
    expect(FakeAudio.instances.filter((a) => a.plays > 0)).toHaveLength(0);
  });

  it('refreshes the alarm list when an alarm arrives', async () => {
    const server = serve();
    const { ws } = await openConsole('/alarm/alarmInfo');
    await screen.findByTestId('alarm-row-101');
    const count = () => server.mock.calls.filter(([p]) => String(p) === '/api/alarm/pageAlarms').length;
    const before = count();
    act(() => ws.serverSend(livePush()));
    await waitFor(() => expect(count()).toBe(before + 1));
  });

  it('closes the socket on logout', async () => {
    serve();
    const { ws } = await openConsole();
    await userEvent.click(screen.getByTestId('user-menu'));
    await userEvent.click(await screen.findByTestId('menu-logout'));
    await waitFor(() => expect(ws.closedWith).toBe(1000));
  });
});

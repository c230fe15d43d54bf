import type { ScreenAlarm, ScreenOverview } from '@coldchain/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { sentBody, stubServer } from '../../test/fake-server';
import { FakeWebSocket } from '../../test/fake-websocket';
import { currentLocation, renderApp, resetBrowserState } from '../../test/render-app';
import { livePush } from '../alarms/test-fixtures';
import { chosenSensors } from '.';

const NOW = Date.now();

function alarm(id: number, overrides: Partial<ScreenAlarm> = {}): ScreenAlarm {
  return {
    id: String(id),
    deviceId: '1',
    deviceName: 'Vaccine fridge 1',
    deviceSerial: 'DEMO0001',
    departmentName: 'Pharmacy',
    sensorId: '11',
    channelName: 'Temperature',
    alarmType: 'overLimit',
    level: 2,
    alarmTime: NOW - id * 60_000,
    content: { en: 'Temperature above the limit', cn: '温度超上限' },
    count: 1,
    lastValue: 9.4,
    ...overrides,
  };
}

function overview(overrides: Partial<ScreenOverview> = {}): ScreenOverview {
  return {
    companyId: 'c1',
    companyName: 'Demo Cold Chain',
    generatedAt: NOW,
    deviceStates: { '1': 5, '2': 1, '3': 0, '4': 2, '5': 0, '6': 0 },
    deviceCount: 8,
    equipmentStates: { total: 3, inUse: 2, underService: 1, disposed: 0, standby: 0 },
    departments: [
      {
        id: '10',
        pid: '0',
        name: 'Demo Cold Chain',
        level: 1,
        deviceCount: 3,
        onlineCount: 3,
        openAlarms: 0,
      },
      { id: '11', pid: '10', name: 'Pharmacy', level: 2, deviceCount: 5, onlineCount: 3, openAlarms: 1 },
    ],
    openAlarms: [alarm(1)],
    openAlarmTotal: 1,
    sensors: [
      {
        id: '11',
        deviceId: '1',
        deviceName: 'Vaccine fridge 1',
        channel: 1,
        name: 'Temperature',
        type: 'temperature',
        unit: '°C',
        value: 9.4,
        updateTime: NOW - 60_000,
        rangeMin: -40,
        rangeMax: 85,
        alarming: true,
      },
      {
        id: '12',
        deviceId: '2',
        deviceName: 'Freezer 2',
        channel: 1,
        name: 'Temperature',
        type: 'temperature',
        unit: '°C',
        value: -20,
        updateTime: NOW - 60_000,
        rangeMin: -40,
        rangeMax: 85,
        alarming: false,
      },
    ],
    devices: [
      {
        id: '1',
        name: 'Vaccine fridge 1',
        serial: 'DEMO0001',
        state: 2,
        departmentId: '11',
        lng: null,
        lat: null,
        openAlarms: 1,
      },
      {
        id: '2',
        name: 'Freezer 2',
        serial: 'DEMO0002',
        state: 1,
        departmentId: '10',
        lng: null,
        lat: null,
        openAlarms: 0,
      },
    ],
    trend: Array.from({ length: 7 }, (_, i) => ({
      date: `2026-11-${String(20 + i).padStart(2, '0')}`,
      alarms: i,
      resolved: 1,
    })),
    ...overrides,
  };
}

function serve(data: () => ScreenOverview = () => overview()) {
  return stubServer({
    overrides: {
      '/api/datav/screenOverview': () => data(),
      '/api/datav/getUserCompanys': () => [{ id: 'c1', name: 'Demo Cold Chain' }],
      '/api/index/getNotice': () => ({
        list: [
          { id: 'n1', kind: 'reminder', title: 'Calibration due', content: '', state: 1, createTime: NOW },
        ],
        total: 1,
        pageNum: 1,
        pageSize: 5,
      }),
    },
  });
}

async function openScreen(path: string) {
  const view = renderApp(path);
  await screen.findByTestId('page-title');
  await waitFor(() => expect(FakeWebSocket.instances.length).toBeGreaterThan(0));
  const ws = FakeWebSocket.last();
  act(() => {
    ws.serverOpen();
    ws.serverSend({ type: 'bind', bindContent: null });
  });
  return { ...view, ws };
}

beforeEach(async () => {
  resetBrowserState();
  localStorage.setItem('accessToken', 't');
  localStorage.setItem('companyId', 'c1');
  await i18n.changeLanguage('en');
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('/screen (organisation overview)', () => {
  it('paints counts, departments, floor view, open alarms and trend from one call, and shows a pushed alarm at once', async () => {
    const fetchMock = serve();
    const { ws } = await openScreen('/screen');
    expect(screen.getByTestId('page-title')).toHaveTextContent('Cold-chain monitoring overview');
    expect(sentBody(fetchMock, '/api/datav/screenOverview')).toEqual({ trendDays: 7 });
    expect(JSON.parse(ws.sent[0]!)).toEqual({ bindType: 2, bindContent: 't' });
    expect(await screen.findByTestId('kpi-devices')).toHaveTextContent('8');
    expect(screen.getByTestId('kpi-alarm')).toHaveTextContent('1');
    expect(screen.getByTestId('kpi-offline')).toHaveTextContent('2');
    expect(screen.getByTestId('kpi-equipment')).toHaveTextContent('2');
    expect(
      within(screen.getByTestId('screen-department-11'))
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Pharmacy', '5', '3', '1']);
    expect(screen.getByTestId('screen-device-1')).toHaveAttribute('data-alarm', 'true');
    expect(screen.getByTestId('screen-device-1')).toHaveAccessibleName(
      'Vaccine fridge 1: Alarm, 1 open alarms',
    );
    expect(screen.getByTestId('screen-trend-2026-11-26')).toHaveAccessibleName(
      '2026-11-26: 6 raised, 1 resolved',
    );
    expect(screen.getByTestId('screen-live')).toHaveAttribute('data-state', 'bound');
    expect(screen.getAllByTestId('screen-alarm')).toHaveLength(1);

    // A push of a device on this screen is on it at once, before any refresh.
    act(() =>
      ws.serverSend(
        livePush({
          alarmId: '202',
          deviceId: '2',
          deviceName: 'Freezer 2',
          deviceSerial: 'DEMO0002',
          alarmTime: Date.now(),
        }),
      ),
    );
    const rows = screen.getAllByTestId('screen-alarm');
    expect(rows.map((r) => r.getAttribute('data-alarm-id'))).toEqual(['202', '1']);
    expect(rows[0]).toHaveTextContent('Freezer 2 · Temperature');
    expect(rows[0]).toHaveTextContent('Over-limit alarm');
    expect(screen.getByTestId('kpi-open-alarms')).toHaveTextContent('2');
    // The same alarm pushed again (a repeat) stays one entry.
    act(() => ws.serverSend(livePush({ alarmId: '202', deviceId: '2', count: 2, alarmTime: Date.now() })));
    expect(screen.getAllByTestId('screen-alarm')).toHaveLength(2);
  });

  it('asks for fresh figures once after a burst of pushes, not once per push', async () => {
    let generated = NOW;
    const fetchMock = serve(() => overview({ generatedAt: generated }));
    const { ws } = await openScreen('/screen?days=30');
    await screen.findByTestId('kpi-devices');
    expect(sentBody(fetchMock, '/api/datav/screenOverview')).toEqual({ trendDays: 30 });
    const calls = () =>
      fetchMock.mock.calls.filter(([url]) => String(url) === '/api/datav/screenOverview').length;
    expect(calls()).toBe(1);
    generated = Date.now();
    act(() => {
      for (let i = 0; i < 20; i++)
        ws.serverSend(livePush({ alarmId: String(500 + i), deviceId: '99', alarmTime: Date.now() }));
    });
    // A device this screen does not show (another company of the person) is not listed by the push.
    expect(screen.getAllByTestId('screen-alarm')).toHaveLength(1);
    await waitFor(() => expect(calls()).toBe(2));
    await new Promise((r) => setTimeout(r, 2_500));
    expect(calls()).toBe(2);
  });

  it('keeps at most 50 alarms on screen however many are pushed', async () => {
    serve();
    const { ws } = await openScreen('/screen');
    await screen.findByTestId('kpi-devices');
    act(() => {
      for (let i = 0; i < 80; i++)
        ws.serverSend(livePush({ alarmId: String(1000 + i), deviceId: '1', alarmTime: Date.now() + i }));
    });
    const rows = screen.getAllByTestId('screen-alarm');
    expect(rows).toHaveLength(50);
    expect(rows[0]).toHaveAttribute('data-alarm-id', '1079');
  });

  it('shows an error state when the figures cannot be read, and empty states when there is nothing', async () => {
    stubServer({
      overrides: {
        '/api/datav/screenOverview': new Response('{}', { status: 502 }),
        '/api/datav/getUserCompanys': () => [],
      },
    });
    renderApp('/screen');
    expect(
      await screen.findAllByText(
        'The screen could not load its figures. It keeps trying.',
        {},
        { timeout: 20_000 },
      ),
    ).not.toHaveLength(0);

    vi.unstubAllGlobals();
    serve(() =>
      overview({ departments: [], devices: [], openAlarms: [], openAlarmTotal: 0, deviceCount: 0 }),
    );
    renderApp('/screen');
    expect(await screen.findByText('No open alarms')).toBeInTheDocument();
    expect(screen.getByText('No monitors to show')).toBeInTheDocument();
    expect(screen.getByText('No departments to show')).toBeInTheDocument();
  });

  it('sends a screen without a login to /login and back, and takes the ticket out of the address', async () => {
    serve();
    localStorage.removeItem('accessToken');
    // A ticket the server refuses (here: no such call answers) leads to the login page.
    renderApp('/screen?ticket=abc&days=30');
    await waitFor(() => expect(currentLocation.path).toBe('/login?redirect=%2Fscreen%3Fdays%3D30'));

    localStorage.setItem('accessToken', 't');
    renderApp('/screen?ticket=abc&days=30');
    await waitFor(() => expect(currentLocation.path).toBe('/screen?days=30'));
  });
});

describe('the header shortcut ticket', () => {
  it('is redeemed for a session when the screen opens in a browser without one', async () => {
    const fetchMock = stubServer({
      overrides: {
        '/api/datav/redeemTicket': () => ({ accessToken: 'from-ticket', expireTime: NOW + 3_600_000 }),
        '/api/datav/screenOverview': () => overview(),
        '/api/datav/getUserCompanys': () => [{ id: 'c1', name: 'Demo Cold Chain' }],
        '/api/index/getNotice': () => ({ list: [], total: 0, pageNum: 1, pageSize: 5 }),
      },
    });
    localStorage.removeItem('accessToken');
    renderApp('/screen?ticket=abcdefghijklmnopqrstuvwxyz&days=30');
    await waitFor(() => expect(currentLocation.path).toBe('/screen?days=30'));
    expect(sentBody(fetchMock, '/api/datav/redeemTicket')).toEqual({ ticket: 'abcdefghijklmnopqrstuvwxyz' });
    expect(localStorage.getItem('accessToken')).toBe('from-ticket');
    expect(await screen.findByTestId('page-title')).toBeInTheDocument();
  });
});

describe('/screen2 (sensor wall)', () => {
  it('shows the chosen sensors’ latest values, alarming ones marked, the notices, in Chinese too', async () => {
    const fetchMock = serve();
    await openScreen('/screen2?sensors=12,11,x,12');
    expect(sentBody(fetchMock, '/api/datav/screenOverview')).toEqual({
      trendDays: 7,
      sensorIds: ['12', '11'],
    });
    const tile = await screen.findByTestId('screen-sensor-11');
    expect(tile).toHaveAttribute('data-alarm', 'true');
    expect(tile).toHaveTextContent('9.4°C');
    expect(screen.getByTestId('screen-sensor-12')).toHaveTextContent('-20°C');
    expect(await screen.findByTestId('screen-notices')).toHaveTextContent('Calibration due');

    await userEvent.click(screen.getByTestId('screen-language'));
    expect(await screen.findByText('传感器看板')).toBeInTheDocument();
    expect(screen.getByTestId('screen-live')).toHaveTextContent('实时');
    expect(screen.getAllByTestId('screen-alarm')[0]).toHaveTextContent('温度超上限');
    await i18n.changeLanguage('en');
  });

  it('reads the sensors of the address: ids only, each once, at most 48', () => {
    expect(chosenSensors(null)).toBeUndefined();
    expect(chosenSensors('a,b')).toBeUndefined();
    expect(chosenSensors(' 3 ,1,3,0')).toEqual(['3', '1']);
    expect(chosenSensors(Array.from({ length: 60 }, (_, i) => i + 1).join(','))).toHaveLength(48);
  });
});

describe('the screens are not the console', () => {
  it('switches between the two screens keeping the address options', async () => {
    serve();
    await openScreen('/screen?sensors=11');
    await userEvent.click(screen.getByTestId('screen-switch'));
    await waitFor(() => expect(currentLocation.path).toBe('/screen2?sensors=11'));
    expect(await screen.findByTestId('screen-sensor-11')).toBeInTheDocument();
  });
});

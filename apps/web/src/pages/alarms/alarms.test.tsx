import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { stubServer } from '../../test/fake-server';
import { currentLocation, renderApp, resetBrowserState } from '../../test/render-app';
import { alarmRecord } from './test-fixtures';

const LIST = '/alarm/alarmInfo';
const DETAIL = '/alarm/alarmInfo/alarmDetail';
const records = [
  alarmRecord(),
  alarmRecord({
    id: '102',
    deviceSerial: 'DEMO0002',
    deviceName: 'Freezer 2',
    alarmType: 'powerOff',
    channelName: null,
    resolveState: 3,
    resolverId: '7',
    resolveTime: Date.UTC(2025, 5, 1, 9, 0, 0),
    count: 4,
  }),
];

function bodies(server: ReturnType<typeof stubServer>, path: string) {
  return server.mock.calls
    .filter(([input]) => String(input) === path)
    .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>);
}

function serve(extra: Parameters<typeof stubServer>[0] = {}) {
  return stubServer({
    user: { id: '7' },
    ...extra,
    overrides: {
      '/api/alarm/pageAlarms': () => ({ list: records, total: 2, pageNum: 1, pageSize: 20 }),
      '/api/alarm/alarmNotifications': () => [],
      ...extra.overrides,
    },
  });
}

async function choose(testId: string, option: string) {
  fireEvent.mouseDown(within(screen.getByTestId(testId)).getByRole('combobox'));
  const matches = await screen.findAllByTitle(option);
  await userEvent.click(matches.at(-1)!);
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

describe('alarm records', () => {
  it('lists type, level, device, sensor, time, content, count, state, resolver and resolve time', async () => {
    serve();
    renderApp(LIST);
    const open = await screen.findByTestId('alarm-row-101');
    expect(open).toHaveTextContent('Over-limit alarm');
    expect(open).toHaveTextContent('Level 2');
    expect(open).toHaveTextContent('Vaccine fridge 1 (DEMO0001)');
    expect(open).toHaveTextContent('Temperature');
    expect(open).toHaveTextContent('Temperature 12.5 °C above the limit 8 °C');
    expect(within(open).getByTestId('alarm-resolve-state')).toHaveTextContent('Pending');
    expect(within(open).getAllByText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)).toHaveLength(1);
    const done = screen.getByTestId('alarm-row-102');
    expect(done).toHaveTextContent('Power outage');
    expect(within(done).getByTestId('alarm-resolve-state')).toHaveTextContent('Resolved');
    expect(done).toHaveTextContent('Demo Admin');
    expect(within(done).getAllByText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)).toHaveLength(2);
  });

  it('shows the Chinese content in Chinese', async () => {
    serve();
    await i18n.changeLanguage('zh-CN');
    renderApp(LIST);
    const row = await screen.findByTestId('alarm-row-101');
    expect(row).toHaveTextContent('温度 12.5 °C 超过上限 8 °C');
    expect(row).toHaveTextContent('超限报警');
    expect(within(row).getByTestId('alarm-resolve-state')).toHaveTextContent('待处理');
  });

  it('filters by resolve state, alarm type and time range', async () => {
    const server = serve();
    renderApp(LIST);
    await screen.findByTestId('alarm-row-101');
    expect(bodies(server, '/api/alarm/pageAlarms')[0]).toEqual({ pageNum: 1, pageSize: 20 });

    await choose('alarm-filter-state', 'In progress');
    await waitFor(() =>
      expect(bodies(server, '/api/alarm/pageAlarms').at(-1)).toEqual({
        pageNum: 1,
        pageSize: 20,
        resolveState: 2,
      }),
    );
    await choose('alarm-filter-type', 'Low battery');
    await waitFor(() =>
      expect(bodies(server, '/api/alarm/pageAlarms').at(-1)).toMatchObject({
        resolveState: 2,
        alarmType: 'lowBattery',
      }),
    );

    const [start, end] = screen.getAllByTestId('alarm-filter-time');
    await userEvent.click(start!);
    await userEvent.type(start!, '2025-06-01 00:00:00{Enter}');
    await userEvent.type(end!, '2025-06-02 00:00:00{Enter}');
    await waitFor(() => {
      const last = bodies(server, '/api/alarm/pageAlarms').at(-1)!;
      expect(last.startTime).toBe(new Date(2025, 5, 1, 0, 0, 0).getTime());
      expect(last.endTime).toBe(new Date(2025, 5, 2, 0, 0, 0).getTime());
    });
  });

  it('a row opens its detail', async () => {
    serve({ overrides: { '/api/alarm/alarmDetail': () => alarmRecord() } });
    renderApp(LIST);
    await userEvent.click(await screen.findByTestId('alarm-row-101'));
    await waitFor(() => expect(currentLocation.path).toBe(`${DETAIL}?id=101`));
    expect(await screen.findByTestId('alarm-detail-device')).toHaveTextContent('Vaccine fridge 1 (DEMO0001)');
  });
});

describe('alarm detail', () => {
  it('resolves an open alarm with type, cause and action, then shows the resolver and time', async () => {
    let record = alarmRecord();
    const server = serve({
      authTags: ['alarm:resolve'],
      overrides: {
        '/api/alarm/alarmDetail': () => record,
        '/api/alarm/resolveAlarm': (body) => {
          record = alarmRecord({
            resolveState: 3,
            resolverId: '7',
            resolveTime: Date.UTC(2025, 5, 1, 9, 30, 0),
            resolveType: String(body.resolveType),
            cause: String(body.cause),
            action: String(body.action),
          });
          return record;
        },
      },
    });
    renderApp(`${DETAIL}?id=101`);
    expect(await screen.findByTestId('alarm-detail-content')).toHaveTextContent(
      'Temperature 12.5 °C above the limit 8 °C',
    );
    expect(screen.getByTestId('alarm-detail-resolver')).toHaveTextContent('-');

    await userEvent.click(await screen.findByTestId('alarm-resolve-open'));
    // The cause is required.
    await userEvent.click(await screen.findByTestId('alarm-resolve-submit'));
    expect(await screen.findByText('Enter the cause')).toBeInTheDocument();
    expect(bodies(server, '/api/alarm/resolveAlarm')).toHaveLength(0);

    await choose('alarm-resolve-type', 'False alarm');
    await userEvent.type(screen.getByTestId('alarm-resolve-cause'), 'Door left open');
    await userEvent.type(screen.getByTestId('alarm-resolve-action'), 'Closed the door');
    await userEvent.click(screen.getByTestId('alarm-resolve-submit'));
    await waitFor(() =>
      expect(bodies(server, '/api/alarm/resolveAlarm')).toEqual([
        { id: '101', resolveType: 'falseAlarm', cause: 'Door left open', action: 'Closed the door' },
      ]),
    );
    await waitFor(() => expect(screen.getByTestId('alarm-detail-resolver')).toHaveTextContent('Demo Admin'));
    expect(screen.getByTestId('alarm-detail-resolve-time')).toHaveTextContent(
      /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/,
    );
    expect(screen.getByTestId('alarm-detail-cause')).toHaveTextContent('Door left open');
    expect(screen.getByTestId('alarm-detail-resolve-type')).toHaveTextContent('False alarm');
    expect(screen.queryByTestId('alarm-resolve-open')).toBeNull();
  });

  it('offers no resolve action without alarm:resolve, nor on an expired alarm', async () => {
    let state = 4;
    serve({
      authTags: ['alarm:resolve'],
      overrides: { '/api/alarm/alarmDetail': () => alarmRecord({ resolveState: state }) },
    });
    const expired = renderApp(`${DETAIL}?id=101`);
    expect(await screen.findByTestId('alarm-detail-content')).toBeInTheDocument();
    expect(within(screen.getByTestId('alarm-detail')).getByTestId('alarm-resolve-state')).toHaveTextContent(
      'Expired',
    );
    await waitFor(() => expect(expired.queryClient.getQueryData(['session', 'powers'])).toBeTruthy());
    expect(screen.queryByTestId('alarm-resolve-open')).toBeNull();
    expired.unmount();

    // A pending alarm, but the user lacks alarm:resolve.
    state = 1;
    vi.unstubAllGlobals();
    serve({ overrides: { '/api/alarm/alarmDetail': () => alarmRecord({ resolveState: state }) } });
    const view = renderApp(`${DETAIL}?id=101`);
    expect(await screen.findByTestId('alarm-detail-content')).toBeInTheDocument();
    await waitFor(() => expect(view.queryClient.getQueryData(['session', 'powers'])).toBeTruthy());
    expect(screen.queryByTestId('alarm-resolve-open')).toBeNull();
  });
});

describe('alarm detail deliveries and resolver', () => {
  const deliveries = [
    {
      id: '501',
      userId: '7',
      userName: 'Demo Admin',
      channel: 'sms',
      sequence: 1,
      recipient: '+86138****8000',
      status: 'sent',
      statusText: 'Sent',
      attempts: 1,
      lastError: null,
      createdAt: Date.UTC(2025, 5, 1, 8, 0, 0),
      sentAt: Date.UTC(2025, 5, 1, 8, 0, 5),
    },
    {
      id: '502',
      userId: '8',
      userName: 'Siti Aminah',
      channel: 'wechat',
      sequence: 1,
      recipient: '',
      status: 'no recipient address',
      statusText: 'No recipient address',
      attempts: 1,
      lastError: null,
      createdAt: Date.UTC(2025, 5, 1, 8, 0, 0),
      sentAt: null,
    },
    {
      id: '503',
      userId: '8',
      userName: 'Siti Aminah',
      channel: 'call',
      sequence: 1,
      recipient: '+60****1234',
      status: 'retrying',
      statusText: 'Failed, will retry',
      attempts: 2,
      lastError: 'provider answered 500',
      createdAt: Date.UTC(2025, 5, 1, 8, 0, 0),
      sentAt: null,
    },
  ];

  it('lists each notification with person, channel, recipient, status and attempts, translated', async () => {
    const server = serve({
      overrides: {
        '/api/alarm/alarmDetail': () => alarmRecord(),
        '/api/alarm/alarmNotifications': () => deliveries,
      },
    });
    renderApp(`${DETAIL}?id=101`);
    const sms = await screen.findByTestId('alarm-delivery-501');
    expect(bodies(server, '/api/alarm/alarmNotifications')).toEqual([{ id: '101' }]);
    expect(sms).toHaveTextContent('Demo Admin');
    expect(sms).toHaveTextContent('SMS');
    expect(sms).toHaveTextContent('+86138****8000');
    expect(within(sms).getByTestId('alarm-delivery-status')).toHaveTextContent('Sent');
    expect(within(sms).getByTestId('alarm-delivery-attempts')).toHaveTextContent('1');
    expect(within(sms).getByText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)).toBeInTheDocument();
    const wechat = screen.getByTestId('alarm-delivery-502');
    expect(wechat).toHaveTextContent('Siti Aminah');
    expect(within(wechat).getByTestId('alarm-delivery-status')).toHaveTextContent('No recipient address');
    const call = screen.getByTestId('alarm-delivery-503');
    expect(within(call).getByTestId('alarm-delivery-status')).toHaveTextContent('Failed, will retry');
    expect(within(call).getByTestId('alarm-delivery-attempts')).toHaveTextContent('2');
  });

  it('shows the statuses in Chinese, and says so when nothing was sent', async () => {
    let list = deliveries;
    serve({
      overrides: {
        '/api/alarm/alarmDetail': () => alarmRecord(),
        '/api/alarm/alarmNotifications': () => list,
      },
    });
    await i18n.changeLanguage('zh-CN');
    const first = renderApp(`${DETAIL}?id=101`);
    const wechat = await screen.findByTestId('alarm-delivery-502');
    expect(within(wechat).getByTestId('alarm-delivery-status')).toHaveTextContent('接收人无联系地址');
    expect(
      within(screen.getByTestId('alarm-delivery-503')).getByTestId('alarm-delivery-status'),
    ).toHaveTextContent('发送失败，稍后重试');
    first.unmount();

    list = [];
    await i18n.changeLanguage('en');
    renderApp(`${DETAIL}?id=101`);
    expect(await screen.findByText('No notifications were sent for this alarm')).toBeInTheDocument();
  });

  it('shows what the receipts said: delivered, or failed with the provider error', async () => {
    const receipts = [
      { ...deliveries[0]!, status: 'delivered', statusText: 'Delivered' },
      {
        ...deliveries[2]!,
        status: 'failed',
        statusText: 'Failed, gave up',
        lastError: 'Twilio: undelivered, error 30003',
      },
    ];
    serve({
      overrides: {
        '/api/alarm/alarmDetail': () => alarmRecord(),
        '/api/alarm/alarmNotifications': () => receipts,
      },
    });
    await i18n.changeLanguage('zh-CN');
    renderApp(`${DETAIL}?id=101`);
    const sms = await screen.findByTestId('alarm-delivery-501');
    expect(within(sms).getByTestId('alarm-delivery-status')).toHaveTextContent('已送达');
    expect(within(sms).queryByTestId('alarm-delivery-error')).toBeNull();
    const call = screen.getByTestId('alarm-delivery-503');
    expect(within(call).getByTestId('alarm-delivery-status')).toHaveTextContent('发送失败，已放弃');
    expect(within(call).getByTestId('alarm-delivery-error')).toHaveTextContent(
      'Twilio: undelivered, error 30003',
    );
    expect(screen.getByRole('columnheader', { name: '服务商错误' })).toBeInTheDocument();
  });

  it('names a resolver other than the current user by the name the server joins', async () => {
    serve({
      overrides: {
        '/api/alarm/pageAlarms': () => ({
          list: [
            alarmRecord({ resolveState: 3, resolverId: '42', resolverName: 'Wang Lei', resolveTime: 1 }),
          ],
          total: 1,
          pageNum: 1,
          pageSize: 20,
        }),
        '/api/alarm/alarmDetail': () =>
          alarmRecord({ resolveState: 3, resolverId: '42', resolverName: 'Wang Lei', resolveTime: 1 }),
        '/api/alarm/alarmNotifications': () => [],
      },
    });
    const list = renderApp(LIST);
    const row = await screen.findByTestId('alarm-row-101');
    expect(row).toHaveTextContent('Wang Lei');
    expect(row).not.toHaveTextContent('User 42');
    list.unmount();
    renderApp(`${DETAIL}?id=101`);
    expect(await screen.findByTestId('alarm-detail-resolver')).toHaveTextContent('Wang Lei');
  });
});

import type { PushDeliveryView, PushUrlView } from '@coldchain/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { envelope, type Handler, stubServer } from '../../test/fake-server';
import { renderApp, resetBrowserState } from '../../test/render-app';
import { device } from '../devices/test-fixtures';
import { PUSH_LIST_PATH, pushDeliveriesUrl } from './paths';

const NOW = Date.UTC(2025, 5, 1, 8, 0, 0);
const SECRET = 'ps_0123456789abcdefghijklmnopqrstuv';
const SERVICE_OFF = 'The push docking service is not enabled for this company; ask your supplier';
const page = <T,>(list: T[]) => ({ list, total: list.length, pageNum: 1, pageSize: 20 });

function address(overrides: Partial<PushUrlView> = {}): PushUrlView {
  return {
    id: 'p1',
    name: 'Hospital BMS',
    url: 'https://bms.example.com/hook',
    events: ['reading', 'alarm'],
    state: 2,
    deviceIds: ['1'],
    createdBy: 'Demo Admin',
    createTime: NOW,
    queued: 0,
    failingSince: null,
    lastDeliveryAt: NOW,
    ...overrides,
  };
}

const addresses = [address(), address({ id: 'p2', name: 'Quality system', state: 1, deviceIds: [] })];
const deliveries: PushDeliveryView[] = [
  {
    id: 'd2',
    event: 'reading',
    time: NOW,
    httpStatus: 503,
    durationMs: 40,
    attempts: 3,
    status: 'retrying',
    error: 'HTTP 503: busy',
    items: 12,
  },
  {
    id: 'd1',
    event: 'test',
    time: NOW - 1000,
    httpStatus: 200,
    durationMs: 8,
    attempts: 1,
    status: 'delivered',
    error: '',
    items: 0,
  },
];

function bodies(server: ReturnType<typeof stubServer>, path: string) {
  return server.mock.calls
    .filter(([input]) => String(input) === path)
    .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>);
}

function serve(overrides: Record<string, Handler | Response> = {}) {
  return stubServer({
    overrides: {
      '/api/push/pageUrls': () => page(addresses),
      '/api/push/saveUrl': () => ({ id: 'p9', secret: SECRET }),
      '/api/push/testUrl': () => ({ ok: true, httpStatus: 200, durationMs: 5, error: '', state: 2 }),
      '/api/push/stopUrl': () => null,
      '/api/push/setDevices': () => ({ deviceIds: ['1', '2'] }),
      '/api/push/pageDeliveries': () => page(deliveries),
      '/api/device/pageDevices': () =>
        page([
          device({ id: '1', serial: 'DEMO0001', name: 'Vaccine fridge 1' }),
          device({ id: '2', serial: 'DEMO0002', name: 'Cold room' }),
        ]),
      ...overrides,
    },
  });
}

const SLOW_MS = 40_000;

beforeEach(async () => {
  resetBrowserState();
  localStorage.setItem('accessToken', 't');
  await i18n.changeLanguage('en');
});
afterEach(() => vi.unstubAllGlobals());

describe('push docking pages', () => {
  it(
    'lists the addresses and shows the secret of a new one once',
    async () => {
      const server = serve();
      renderApp(PUSH_LIST_PATH);
      const row = await screen.findByTestId('push-row-p1');
      expect(row).toHaveTextContent('https://bms.example.com/hook');
      expect(row).toHaveTextContent('Readings');
      expect(within(row).getByTestId('push-state-p1')).toHaveTextContent('Enabled');
      expect(within(screen.getByTestId('push-row-p2')).getByTestId('push-state-p2')).toHaveTextContent(
        'Pending',
      );

      await userEvent.click(screen.getByTestId('push-add'));
      await userEvent.type(await screen.findByTestId('push-name'), 'Regulator');
      await userEvent.type(screen.getByTestId('push-url'), 'ftp://nowhere');
      await userEvent.click(screen.getByTestId('push-save'));
      expect(
        await screen.findByText('Enter an http:// or https:// address of at most 2000 characters'),
      ).toBeInTheDocument();
      expect(bodies(server, '/api/push/saveUrl')).toHaveLength(0);
      await userEvent.clear(screen.getByTestId('push-url'));
      await userEvent.type(screen.getByTestId('push-url'), 'https://reg.example.com/in');
      await userEvent.click(screen.getByTestId('push-save'));
      const dialog = await screen.findByTestId('push-secret-dialog');
      expect(bodies(server, '/api/push/saveUrl')).toEqual([
        { name: 'Regulator', url: 'https://reg.example.com/in', events: ['reading', 'alarm'] },
      ]);
      expect(within(dialog).getByTestId('push-secret')).toHaveTextContent(SECRET);
      await userEvent.click(within(dialog).getByTestId('push-secret-done'));
      await waitFor(() => expect(screen.queryByText(SECRET)).toBeNull());
    },
    SLOW_MS,
  );

  it(
    'tests and stops an address',
    async () => {
      const server = serve();
      renderApp(PUSH_LIST_PATH);
      await screen.findByTestId('push-row-p2');
      await userEvent.click(screen.getByTestId('push-test-p2'));
      await waitFor(() => expect(bodies(server, '/api/push/testUrl')).toEqual([{ id: 'p2' }]));
      expect(
        await screen.findByText('The receiver answered 200; the address is enabled'),
      ).toBeInTheDocument();
      await userEvent.click(screen.getByTestId('push-stop-p1'));
      expect(bodies(server, '/api/push/stopUrl')).toHaveLength(0);
      await userEvent.click(await screen.findByTestId('push-stop-confirm'));
      await waitFor(() => expect(bodies(server, '/api/push/stopUrl')).toEqual([{ id: 'p1' }]));
    },
    SLOW_MS,
  );

  it(
    "chooses an address's devices",
    async () => {
      const server = serve();
      renderApp(PUSH_LIST_PATH);
      await screen.findByTestId('push-row-p1');
      await userEvent.click(screen.getByTestId('push-devices-p1'));
      expect(await screen.findByTestId('push-devices-count')).toHaveTextContent('1 device chosen');
      await userEvent.click(within(screen.getByTestId('push-devices-select')).getByRole('combobox'));
      await userEvent.click(await screen.findByTitle('Cold room (DEMO0002)'));
      expect(screen.getByTestId('push-devices-count')).toHaveTextContent('2 devices chosen');
      await userEvent.click(screen.getByTestId('push-devices-save'));
      await waitFor(() =>
        expect(bodies(server, '/api/push/setDevices')).toEqual([{ id: 'p1', deviceIds: ['1', '2'] }]),
      );
    },
    SLOW_MS,
  );

  it(
    "shows an address's deliveries with status, HTTP status, duration, attempts and error",
    async () => {
      const server = serve();
      renderApp(pushDeliveriesUrl('p1'));
      const retrying = await screen.findByTestId('delivery-row-d2');
      expect(bodies(server, '/api/push/pageDeliveries')[0]).toEqual({ id: 'p1', pageNum: 1, pageSize: 20 });
      expect(within(retrying).getByTestId('delivery-status-d2')).toHaveTextContent('Retrying');
      expect(retrying).toHaveTextContent('503');
      expect(retrying).toHaveTextContent('40 ms');
      expect(retrying).toHaveTextContent('HTTP 503: busy');
      expect(screen.getByTestId('delivery-row-d1')).toHaveTextContent('Test');
      expect(await screen.findByTestId('push-address')).toHaveTextContent('Hospital BMS');
    },
    SLOW_MS,
  );

  it(
    'shows the service refusal instead of the table, in Chinese too',
    async () => {
      serve({ '/api/push/pageUrls': envelope(null, 500, SERVICE_OFF) });
      await i18n.changeLanguage('zh-CN');
      renderApp(PUSH_LIST_PATH);
      expect(await screen.findByTestId('open-api-refused')).toHaveTextContent(SERVICE_OFF);
      expect(screen.queryByTestId('push-add')).toBeNull();
      expect(screen.getByTestId('page-title')).toHaveTextContent('推送链接对接');
    },
    SLOW_MS,
  );
});

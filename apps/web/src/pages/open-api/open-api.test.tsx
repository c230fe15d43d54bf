import type { OpenApiKeyView, OpenApiUsageView } from '@coldchain/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { envelope, type Handler, stubServer } from '../../test/fake-server';
import { renderApp, resetBrowserState } from '../../test/render-app';
import { device } from '../devices/test-fixtures';
import { OPEN_API_PATH, OPEN_DEVICE_PATH, openDeviceUrl } from './paths';

const NOW = Date.UTC(2025, 5, 1, 8, 0, 0);
const SECRET = 'sk_9f8e7d6c5b4a39281706f5e4d3c2b1a0';
const SERVICE_OFF = 'The open API service is not enabled for this company; ask your supplier';

const page = <T,>(list: T[]) => ({ list, total: list.length, pageNum: 1, pageSize: 20 });

function key(overrides: Partial<OpenApiKeyView> = {}): OpenApiKeyView {
  return {
    id: 'k1',
    name: 'Building management',
    appKey: 'ak_0123456789abcdef',
    state: 'active',
    deviceIds: ['1'],
    createdBy: 'Demo Admin',
    createTime: NOW,
    lastUsedAt: NOW + 60_000,
    revokedAt: null,
    callsToday: 12,
    ...overrides,
  };
}

const keys = [
  key(),
  key({
    id: 'k2',
    name: 'Old quality system',
    appKey: 'ak_revoked00000000',
    state: 'revoked',
    revokedAt: NOW,
  }),
  key({ id: 'k3', name: 'Regulator feed', appKey: 'ak_regulator000000', deviceIds: [] }),
];

const usage: OpenApiUsageView[] = [
  {
    id: 'u1',
    time: NOW,
    method: 'GET',
    path: '/open/v1/devices?pageNum=1',
    httpStatus: 200,
    msgCode: 200,
    durationMs: 14,
    ip: '203.0.113.7',
  },
  {
    id: 'u2',
    time: NOW - 1000,
    method: 'GET',
    path: '/open/v1/alarms',
    httpStatus: 401,
    msgCode: 311,
    durationMs: 3,
    ip: '203.0.113.7',
  },
  {
    id: 'u3',
    time: NOW - 2000,
    method: 'GET',
    path: '/open/v1/devices',
    httpStatus: 0,
    msgCode: 0,
    durationMs: 0,
    ip: '203.0.113.7',
  },
];

const devices = [
  device({ id: '1', serial: 'DEMO0001', name: 'Vaccine fridge 1' }),
  device({ id: '2', serial: 'DEMO0002', name: 'Vaccine fridge 2' }),
  device({ id: '3', serial: 'DEMO0003', name: 'Cold room' }),
];

function bodies(server: ReturnType<typeof stubServer>, path: string) {
  return server.mock.calls
    .filter(([input]) => String(input) === path)
    .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>);
}

function serve(overrides: Record<string, Handler | Response> = {}) {
  return stubServer({
    overrides: {
      '/api/openApi/pageKeys': () => page(keys),
      '/api/openApi/createKey': () => ({ id: 'k9', appKey: 'ak_new0000000000001', appSecret: SECRET }),
      '/api/openApi/revokeKey': () => null,
      '/api/openApi/pageUsage': () => page(usage),
      '/api/openApi/setDevices': () => null,
      '/api/device/pageDevices': () => page(devices),
      ...overrides,
    },
  });
}

/** A test's limit: the first visit compiles the lazy page, slow on a shared 2-core machine. */
const SLOW_MS = 40_000;

beforeEach(async () => {
  resetBrowserState();
  localStorage.setItem('accessToken', 't');
  await i18n.changeLanguage('en');
});
afterEach(() => vi.unstubAllGlobals());

describe('open API keys', () => {
  it(
    'lists the keys and shows the secret of a new key once',
    async () => {
      const server = serve();
      renderApp(OPEN_API_PATH);
      const row = await screen.findByTestId('key-row-k1');
      expect(row).toHaveTextContent('ak_0123456789abcdef');
      expect(row).toHaveTextContent('Demo Admin');
      expect(within(row).getByTestId('key-state-k1')).toHaveTextContent('Active');
      expect(within(screen.getByTestId('key-row-k2')).getByTestId('key-state-k2')).toHaveTextContent(
        'Revoked',
      );
      // A revoked key can no longer be revoked or opened to devices.
      expect(screen.queryByTestId('key-revoke-k2')).toBeNull();
      expect(screen.getByTestId('signing-text')).toHaveTextContent(
        'METHOD\\npath?query\\ntimestamp\\nnonce\\nbody',
      );
      expect(screen.getByTestId('open-api-base-url')).toHaveTextContent(`${window.location.origin}/open/v1`);

      await userEvent.click(screen.getByTestId('key-create-open'));
      await userEvent.type(await screen.findByTestId('key-name'), 'x');
      await userEvent.click(screen.getByTestId('key-create-save'));
      expect(await screen.findByText('Key name must be 2-50 characters')).toBeInTheDocument();
      expect(bodies(server, '/api/openApi/createKey')).toHaveLength(0);

      await userEvent.clear(screen.getByTestId('key-name'));
      await userEvent.type(screen.getByTestId('key-name'), '  Hospital BMS  ');
      await userEvent.click(screen.getByTestId('key-create-save'));
      const dialog = await screen.findByTestId('key-created-dialog');
      expect(bodies(server, '/api/openApi/createKey')).toEqual([{ name: 'Hospital BMS' }]);
      expect(within(dialog).getByTestId('key-created-app-key')).toHaveTextContent('ak_new0000000000001');
      expect(within(dialog).getByTestId('key-created-app-secret')).toHaveTextContent(SECRET);
      expect(within(dialog).getByTestId('key-created-warning')).toHaveTextContent('will not be shown again');
      // The key list is asked again for the new key.
      await waitFor(() => expect(bodies(server, '/api/openApi/pageKeys').length).toBeGreaterThan(1));

      await userEvent.click(within(dialog).getByTestId('key-created-done'));
      await waitFor(() => expect(screen.queryByText(SECRET)).toBeNull());
      expect(document.body.textContent).not.toContain(SECRET);
    },
    SLOW_MS,
  );

  it(
    'revokes a key after confirmation',
    async () => {
      const server = serve();
      renderApp(OPEN_API_PATH);
      await screen.findByTestId('key-row-k1');
      await userEvent.click(screen.getByTestId('key-revoke-k3'));
      expect(bodies(server, '/api/openApi/revokeKey')).toHaveLength(0);
      await userEvent.click(await screen.findByTestId('key-revoke-confirm'));
      await waitFor(() => expect(bodies(server, '/api/openApi/revokeKey')).toEqual([{ id: 'k3' }]));
      expect(await screen.findByText('The key has been revoked')).toBeInTheDocument();
    },
    SLOW_MS,
  );

  it(
    "shows a key's usage log",
    async () => {
      const server = serve();
      renderApp(OPEN_API_PATH);
      await screen.findByTestId('key-row-k1');
      await userEvent.click(screen.getByTestId('key-usage-k1'));
      const drawer = await screen.findByTestId('usage-drawer');
      const first = await within(drawer).findByTestId('usage-row-u1');
      expect(bodies(server, '/api/openApi/pageUsage')[0]).toEqual({ id: 'k1', pageNum: 1, pageSize: 20 });
      expect(first).toHaveTextContent('/open/v1/devices?pageNum=1');
      expect(first).toHaveTextContent('203.0.113.7');
      expect(first).toHaveTextContent('14 ms');
      const refused = within(drawer).getByTestId('usage-row-u2');
      expect(refused).toHaveTextContent('401');
      expect(refused).toHaveTextContent('311');
      // Admitted, its answer never sent: said in words, not as HTTP status 0.
      expect(within(drawer).getByTestId('usage-row-u3')).toHaveTextContent('Unfinished');
    },
    SLOW_MS,
  );

  it(
    'shows the service refusal as the page state instead of a table',
    async () => {
      serve({ '/api/openApi/pageKeys': envelope(null, 500, SERVICE_OFF) });
      renderApp(OPEN_API_PATH);
      const refused = await screen.findByTestId('open-api-refused');
      expect(refused).toHaveTextContent(SERVICE_OFF);
      expect(document.querySelector('.ant-table')).toBeNull();
      expect(screen.queryByTestId('key-create-open')).toBeNull();
    },
    SLOW_MS,
  );

  it(
    'shows a key list that failed to load with a retry',
    async () => {
      serve({ '/api/openApi/pageKeys': new Response('{}', { status: 502 }) });
      renderApp(OPEN_API_PATH);
      const error = await screen.findByTestId('open-api-error');
      expect(error).toHaveTextContent('The list could not be loaded');
      expect(document.querySelector('.ant-table')).toBeNull();
    },
    SLOW_MS,
  );
});

describe('open devices', () => {
  it(
    'opens the chosen devices to a key with setDevices',
    async () => {
      const server = serve();
      renderApp(openDeviceUrl('k1'));
      const second = await screen.findByTestId('open-device-row-DEMO0002');
      const current = screen.getByTestId('open-device-current');
      expect(current).toHaveTextContent('Opened devices (1)');
      expect(within(current).getByTestId('opened-1')).toHaveTextContent('Vaccine fridge 1 (DEMO0001)');
      expect(screen.getByTestId('open-device-save')).toBeDisabled();

      await userEvent.click(within(second).getByRole('checkbox'));
      const first = screen.getByTestId('open-device-row-DEMO0001');
      await userEvent.click(within(first).getByRole('checkbox'));
      expect(current).toHaveTextContent('Opened devices (1)');
      expect(within(current).getByTestId('opened-2')).toBeInTheDocument();
      expect(within(current).queryByTestId('opened-1')).toBeNull();

      await userEvent.click(screen.getByTestId('open-device-save'));
      await waitFor(() =>
        expect(bodies(server, '/api/openApi/setDevices')).toEqual([{ id: 'k1', deviceIds: ['2'] }]),
      );
      expect(await screen.findByText('The devices of the key were saved')).toBeInTheDocument();
    },
    SLOW_MS,
  );

  it(
    'offers only active keys and searches the devices',
    async () => {
      const server = serve();
      renderApp(OPEN_DEVICE_PATH);
      await screen.findByTestId('open-device-row-DEMO0001');
      // The first active key is chosen when none is named; it has device 1 opened.
      expect(screen.getByTestId('open-device-current')).toHaveTextContent('Opened devices (1)');
      await userEvent.click(within(screen.getByTestId('open-device-key')).getByRole('combobox'));
      const options = await screen.findAllByRole('option');
      expect(options.map((o) => o.textContent)).toEqual(
        expect.not.arrayContaining([expect.stringContaining('Old quality system')]),
      );
      await userEvent.click(await screen.findByTitle('Regulator feed (ak_regulator000000)'));
      await waitFor(() =>
        expect(screen.getByTestId('open-device-current')).toHaveTextContent('Opened devices (0)'),
      );
      expect(
        screen.getByText('No devices are opened to this key yet: it reads nothing.'),
      ).toBeInTheDocument();

      const search = within(screen.getByTestId('open-device-search')).getByRole('searchbox');
      await userEvent.type(search, 'cold{Enter}');
      await waitFor(() =>
        expect(bodies(server, '/api/device/pageDevices').at(-1)).toEqual({
          pageNum: 1,
          pageSize: 50,
          keyword: 'cold',
        }),
      );
    },
    SLOW_MS,
  );

  it(
    'shows the service refusal on the devices page too',
    async () => {
      serve({ '/api/openApi/pageKeys': envelope(null, 500, SERVICE_OFF) });
      renderApp(OPEN_DEVICE_PATH);
      expect(await screen.findByTestId('open-api-refused')).toHaveTextContent(SERVICE_OFF);
    },
    SLOW_MS,
  );
});

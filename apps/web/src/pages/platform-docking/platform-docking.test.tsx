import type { CompanyDockingView, CompanyPlatformView, PushDeliveryView } from '@coldchain/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { type Handler, stubServer } from '../../test/fake-server';
import { renderApp, resetBrowserState } from '../../test/render-app';
import { device } from '../devices/test-fixtures';
import { dockMonitorUrl, PLATFORM_LIST_PATH } from './paths';

const NOW = Date.UTC(2026, 10, 1, 8, 0, 0);
const page = <T,>(list: T[]) => ({ list, total: list.length, pageNum: 1, pageSize: 20 });

function docking(overrides: Partial<CompanyDockingView> = {}): CompanyDockingView {
  return {
    id: 'k1',
    platformId: 'pl1',
    platformName: 'Provincial vaccine platform',
    state: 2,
    stoppedByFailures: false,
    deviceIds: ['1'],
    appliedBy: 'Demo Admin',
    applyTime: NOW,
    decideTime: NOW + 60_000,
    reason: '',
    queued: 3,
    lastDeliveryAt: NOW + 120_000,
    failingSince: null,
    ...overrides,
  };
}

const platforms: CompanyPlatformView[] = [
  { id: 'pl1', name: 'Provincial vaccine platform', protocol: 'generic-json', docking: docking() },
  { id: 'pl2', name: 'Pharma quality system', protocol: 'generic-json', docking: null },
  {
    id: 'pl3',
    name: 'City food safety',
    protocol: 'generic-json',
    docking: docking({ id: 'k3', platformId: 'pl3', state: 3, deviceIds: [], reason: 'Not registered' }),
  },
];

const delivered: PushDeliveryView = {
  id: 'd1',
  event: 'reading',
  time: NOW,
  httpStatus: 200,
  durationMs: 12,
  attempts: 1,
  status: 'delivered',
  error: '',
  items: 4,
};

function bodies(server: ReturnType<typeof stubServer>, path: string) {
  return server.mock.calls
    .filter(([input]) => String(input) === path)
    .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>);
}

function serve(overrides: Record<string, Handler | Response> = {}) {
  return stubServer({
    overrides: {
      '/api/platformDock/pagePlatforms': () => platforms,
      '/api/platformDock/apply': () => ({ id: 'k9' }),
      '/api/platformDock/stop': () => null,
      '/api/platformDock/dockingDetail': () => docking(),
      '/api/platformDock/pageDeliveries': () => page([delivered]),
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

describe('platform docking pages', () => {
  it(
    'lists the platforms with the docking on each, applies with chosen monitors, and stops one',
    async () => {
      const server = serve();
      renderApp(PLATFORM_LIST_PATH);
      const enabled = await screen.findByTestId('dock-row-pl1');
      expect(within(enabled).getByTestId('dock-state-pl1')).toHaveTextContent('Enabled');
      expect(within(screen.getByTestId('dock-row-pl2')).getByTestId('dock-state-pl2')).toHaveTextContent(
        'Not docked',
      );
      expect(screen.getByTestId('dock-row-pl3')).toHaveTextContent('Refused: Not registered');
      expect(screen.queryByTestId('dock-apply-pl1')).toBeNull();

      await userEvent.click(screen.getByTestId('dock-apply-pl2'));
      await userEvent.click(within(await screen.findByTestId('dock-monitors-select')).getByRole('combobox'));
      await userEvent.click(await screen.findByTitle('Cold room (DEMO0002)'));
      await userEvent.click(screen.getByTestId('dock-monitors-save'));
      await waitFor(() =>
        expect(bodies(server, '/api/platformDock/apply')).toEqual([{ platformId: 'pl2', deviceIds: ['2'] }]),
      );

      await userEvent.click(screen.getByTestId('dock-stop-pl1'));
      expect(bodies(server, '/api/platformDock/stop')).toHaveLength(0);
      await userEvent.click(await screen.findByTestId('dock-stop-confirm'));
      await waitFor(() => expect(bodies(server, '/api/platformDock/stop')).toEqual([{ id: 'k1' }]));
    },
    SLOW_MS,
  );

  it(
    'shows a docking and its deliveries on the monitor page, in Chinese',
    async () => {
      const server = serve();
      await i18n.changeLanguage('zh-CN');
      renderApp(dockMonitorUrl('k1'));
      const detail = await screen.findByTestId('dock-detail');
      expect(detail).toHaveTextContent('Provincial vaccine platform');
      expect(detail).toHaveTextContent('已启用');
      expect(await screen.findByTestId('delivery-row-d1')).toHaveTextContent('已送达');
      expect(bodies(server, '/api/platformDock/pageDeliveries')[0]).toEqual({
        id: 'k1',
        pageNum: 1,
        pageSize: 20,
      });
      expect(screen.getByTestId('page-title')).toHaveTextContent('对接监控');
    },
    SLOW_MS,
  );
});

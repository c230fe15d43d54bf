import type { CameraView, PlatformAccountView } from '@coldchain/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { envelope, type Handler, stubServer } from '../../test/fake-server';
import { renderApp, resetBrowserState } from '../../test/render-app';
import { alarmRecord } from '../alarms/test-fixtures';
import { CAMERA_LIST_PATH, CAMERA_SCREEN_PATH, cameraDetailUrl, PLATFORM_ACCOUNT_PATH } from './paths';

const NOW = Date.UTC(2025, 5, 1, 8, 0, 0);
const REFUSED = 'The video platform refused: EZVIZ 20007: device offline';
const page = <T,>(list: T[]) => ({ list, total: list.length, pageNum: 1, pageSize: 20 });

function camera(overrides: Partial<CameraView> = {}): CameraView {
  return {
    id: 'c1',
    name: 'Cold room door',
    serial: 'E10001',
    type: 'C6N',
    platform: 'ezviz',
    platformAccountId: 'a1',
    platformAccountName: 'Head office EZVIZ',
    channel: 1,
    streamUrl: '',
    departmentId: null,
    departmentName: null,
    online: true,
    onlineCheckTime: NOW,
    equipment: [{ id: 'e1', name: 'Cold room 1' }],
    devices: [],
    createTime: NOW,
    ...overrides,
  };
}

const account: PlatformAccountView = {
  id: 'a1',
  name: 'Head office EZVIZ',
  platform: 'ezviz',
  appKeyMasked: 'ez****34',
  hasSecret: true,
  cameraCount: 1,
  createTime: NOW,
};

function bodies(server: ReturnType<typeof stubServer>, path: string) {
  return server.mock.calls
    .filter(([input]) => String(input) === path)
    .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>);
}

function serve(overrides: Record<string, Handler | Response> = {}) {
  return stubServer({
    overrides: {
      '/api/camera/pageCameras': () =>
        page([camera(), camera({ id: 'c2', name: 'Dock', online: false, equipment: [] })]),
      '/api/camera/cameraDetail': () => camera(),
      '/api/camera/pagePlatformAccounts': () => page([account]),
      '/api/camera/savePlatformAccount': () => ({ id: 'a2' }),
      '/api/camera/liveAddress': envelope(null, 500, REFUSED),
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

describe('camera pages', () => {
  it(
    'lists cameras with their state and what they watch',
    async () => {
      serve();
      renderApp(CAMERA_LIST_PATH);
      const row = await screen.findByTestId('camera-row-c1');
      expect(row).toHaveTextContent('E10001');
      expect(row).toHaveTextContent('Cold room 1');
      expect(within(row).getByTestId('camera-online-c1')).toHaveTextContent('Online');
      expect(within(screen.getByTestId('camera-row-c2')).getByTestId('camera-online-c2')).toHaveTextContent(
        'Offline',
      );
    },
    SLOW_MS,
  );

  it(
    'shows credentials masked only, and sends new ones once',
    async () => {
      const server = serve();
      renderApp(PLATFORM_ACCOUNT_PATH);
      expect(await screen.findByTestId('account-key-a1')).toHaveTextContent('ez****34');
      await userEvent.click(screen.getByTestId('account-add'));
      await userEvent.type(await screen.findByTestId('account-name'), 'Warehouse EZVIZ');
      await userEvent.click(screen.getByTestId('account-save'));
      expect(
        await screen.findAllByText('An EZVIZ account needs its app key and app secret'),
      ).not.toHaveLength(0);
      expect(bodies(server, '/api/camera/savePlatformAccount')).toHaveLength(0);
      await userEvent.type(screen.getByTestId('account-app-key'), 'key-1');
      await userEvent.type(screen.getByTestId('account-app-secret'), 'secret-1');
      await userEvent.click(screen.getByTestId('account-save'));
      await waitFor(() =>
        expect(bodies(server, '/api/camera/savePlatformAccount')).toEqual([
          { name: 'Warehouse EZVIZ', platform: 'ezviz', appKey: 'key-1', appSecret: 'secret-1' },
        ]),
      );
    },
    SLOW_MS,
  );

  it(
    "shows the platform's refusal in the player, in Chinese too, with a retry",
    async () => {
      const server = serve();
      await i18n.changeLanguage('zh-CN');
      renderApp(cameraDetailUrl('c1'));
      const refused = await screen.findByTestId('camera-refused-c1');
      expect(refused).toHaveTextContent(REFUSED);
      expect(screen.getByTestId('page-title')).toHaveTextContent('Cold room door');
      expect(screen.getByText('萤石')).toBeInTheDocument();
      await userEvent.click(within(refused).getByRole('button', { name: /重试/ }));
      await waitFor(() => expect(bodies(server, '/api/camera/liveAddress').length).toBe(2));
      expect(bodies(server, '/api/camera/liveAddress')[0]).toEqual({ id: 'c1' });
    },
    SLOW_MS,
  );

  it(
    'shows the picture of a watching camera on the alarm detail, and why another has none',
    async () => {
      const server = serve({
        '/api/alarm/alarmDetail': () => ({
          ...alarmRecord(),
          endTime: null,
          clearing: null,
          equipment: null,
        }),
        '/api/alarm/alarmNotifications': () => [],
        '/api/camera/alarmSnapshots': () => [
          {
            cameraId: 'c1',
            cameraName: 'Cold room door',
            state: 'ok',
            imageUrl: '/files/abc.jpg',
            error: '',
            takenTime: NOW,
          },
          {
            cameraId: 'c2',
            cameraName: 'Dock',
            state: 'failed',
            imageUrl: null,
            error: 'EZVIZ 20007: device offline',
            takenTime: NOW,
          },
        ],
      });
      renderApp('/alarm/alarmInfo/alarmDetail?id=101');
      await screen.findByTestId('alarm-detail-content');
      await waitFor(() => expect(bodies(server, '/api/camera/alarmSnapshots')).toHaveLength(1));
      const pictures = await screen.findByTestId('alarm-snapshots');
      expect(within(pictures).getByRole('img', { name: /Cold room door/ })).toHaveAttribute(
        'src',
        '/files/abc.jpg',
      );
      expect(
        within(screen.getByTestId('alarm-snapshot-c2')).getByText('EZVIZ 20007: device offline'),
      ).toBeInTheDocument();
      expect(bodies(server, '/api/camera/alarmSnapshots')[0]).toEqual({ alarmId: '101' });
    },
    SLOW_MS,
  );

  it(
    'remembers the camera wall: its size and cameras',
    async () => {
      const server = serve({
        '/api/camera/screen': () => ({ size: 1, cameraIds: ['c2'] }),
        '/api/camera/saveScreen': () => null,
      });
      renderApp(CAMERA_SCREEN_PATH);
      expect(await screen.findByTestId('wall-tile-c2')).toHaveTextContent('Dock');
      await userEvent.click(screen.getByText('9 tiles'));
      await userEvent.click(screen.getByTestId('wall-save'));
      await waitFor(() =>
        expect(bodies(server, '/api/camera/saveScreen')).toEqual([{ size: 9, cameraIds: ['c2'] }]),
      );
    },
    SLOW_MS,
  );
});

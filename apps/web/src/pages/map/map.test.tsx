import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { stubServer } from '../../test/fake-server';
import { currentLocation, renderApp, resetBrowserState } from '../../test/render-app';
import { device } from '../devices/test-fixtures';
import { MARKER_COLORS } from './MapCanvas';

const PAGE = '/monitoring/mapMode';
const fleet = [
  device({
    id: '1',
    name: 'KL fridge',
    serial: 'DEMO0001',
    state: 1,
    lat: 3.139,
    lng: 101.6869,
    region: 'Kuala Lumpur',
    address: 'Jalan Ampang 1',
  }),
  device({
    id: '2',
    name: 'Penang freezer',
    serial: 'DEMO0002',
    state: 2,
    lat: 5.4141,
    lng: 100.3288,
    region: 'Penang',
    address: '',
  }),
  device({ id: '3', name: 'Johor van', serial: 'DEMO0003', state: 4, lat: null, lng: null }),
  device({ id: '4', name: 'Old logger', serial: 'DEMO0004', state: 6 }),
];

function bodies(server: ReturnType<typeof stubServer>, path: string) {
  return server.mock.calls
    .filter(([input]) => String(input) === path)
    .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>);
}

function serve(options: { tiles?: string; list?: typeof fleet; total?: number } = {}) {
  const list = options.list ?? fleet;
  return stubServer({
    overrides: {
      '/api/system/clientConfig': () => ({
        productName: 'ColdChain',
        helpUrl: '',
        contact: { phone: '', email: '', address: '' },
        version: '0.1.0',
        mapTileUrl: options.tiles ?? '',
      }),
      '/api/device/pageDevices': (body) => {
        const pageNum = Number(body.pageNum);
        const pageSize = Number(body.pageSize);
        return {
          list: list.slice((pageNum - 1) * pageSize, pageNum * pageSize),
          total: options.total ?? list.length,
          pageNum,
          pageSize,
        };
      },
    },
  });
}

beforeEach(async () => {
  resetBrowserState();
  localStorage.setItem('accessToken', 't');
  await i18n.changeLanguage('en');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('map mode', () => {
  it('draws a marker per located device, coloured by state, and lists the others with the GPS message', async () => {
    const server = serve();
    renderApp(PAGE);
    const kl = await screen.findByTestId('map-marker-1');
    expect(kl).toHaveTextContent('KL fridge');
    expect(kl.getAttribute('data-state')).toBe('1');
    expect(kl.querySelector('circle')?.getAttribute('fill')).toBe(MARKER_COLORS[1]);
    const penang = screen.getByTestId('map-marker-2');
    expect(penang.querySelector('circle')?.getAttribute('fill')).toBe(MARKER_COLORS[2]);
    expect(MARKER_COLORS[1]).not.toBe(MARKER_COLORS[2]);
    // Penang is north-west of Kuala Lumpur: drawn left of and above it.
    const at = (el: HTMLElement) =>
      el
        .getAttribute('transform')!
        .match(/translate\(([-\d.]+) ([-\d.]+)\)/)!
        .slice(1)
        .map(Number);
    const [klX, klY] = at(kl);
    const [pgX, pgY] = at(penang);
    expect(pgX!).toBeLessThan(klX!);
    expect(pgY!).toBeLessThan(klY!);

    // Without GPS: no marker, listed with the message.
    expect(screen.queryByTestId('map-marker-3')).toBeNull();
    expect(screen.queryByTestId('map-marker-4')).toBeNull();
    expect(screen.getByTestId('map-no-gps-3')).toHaveTextContent(
      'Current device has not uploaded GPS, so location failed',
    );
    expect(screen.getByTestId('map-no-gps-4')).toBeInTheDocument();
    expect(screen.queryByTestId('map-no-gps-1')).toBeNull();
    expect(screen.getByTestId('map-unlocated-count')).toHaveTextContent('2 device(s) without a GPS position');
    expect(screen.getByTestId('map-legend-2')).toHaveTextContent('(1)');

    // No tile source configured: no tiles, markers on the plain grid, and the page says so.
    expect(screen.queryAllByTestId('map-tile')).toHaveLength(0);
    expect(screen.getByTestId('map-no-tiles')).toBeInTheDocument();
    expect(bodies(server, '/api/device/pageDevices')).toEqual([{ pageNum: 1, pageSize: 200 }]);
  });

  it('draws tiles from the configured source under the markers', async () => {
    serve({ tiles: 'https://tiles.example.org/{z}/{x}/{y}.png' });
    renderApp(PAGE);
    await screen.findByTestId('map-marker-1');
    await waitFor(() => expect(screen.queryAllByTestId('map-tile').length).toBeGreaterThan(0));
    const zoom = screen.getByTestId('map-canvas').getAttribute('data-zoom');
    for (const tile of screen.getAllByTestId('map-tile'))
      expect(tile.getAttribute('href')).toMatch(
        new RegExp(`^https://tiles\\.example\\.org/${zoom}/\\d+/\\d+\\.png$`),
      );
    expect(screen.queryByTestId('map-no-tiles')).toBeNull();
  });

  it('locating a device without GPS says so; a device without a detailed address is at district level', async () => {
    serve();
    renderApp(PAGE);
    await screen.findByTestId('map-marker-1');

    await userEvent.click(screen.getByTestId('map-item-3'));
    expect(
      await screen.findAllByText('Current device has not uploaded GPS, so location failed'),
    ).not.toHaveLength(0);
    expect(screen.getByTestId('map-selected-no-gps')).toBeInTheDocument();

    await userEvent.click(screen.getByTestId('map-item-2'));
    expect(
      (await screen.findAllByText('Device has no detailed address, so it is located at district level'))
        .length,
    ).toBeGreaterThan(0);
    const selected = screen.getByTestId('map-selected');
    expect(selected).toHaveTextContent('Penang freezer');
    expect(within(selected).getByTestId('map-selected-location')).toHaveTextContent('Penang');
    expect(within(selected).getByTestId('map-selected-district')).toBeInTheDocument();
    // Located: zoomed in on it, centred.
    expect(Number(screen.getByTestId('map-canvas').getAttribute('data-zoom'))).toBeGreaterThanOrEqual(12);
    expect(screen.getByTestId('map-marker-2').getAttribute('transform')).toBe('translate(480 280)');

    // A device with a full address: no district notice; its marker selects it too.
    await userEvent.click(screen.getByTestId('map-fit'));
    await userEvent.click(await screen.findByTestId('map-marker-1'));
    expect(screen.getByTestId('map-selected')).toHaveTextContent('KL fridge');
    expect(screen.getByTestId('map-selected-location')).toHaveTextContent('Kuala Lumpur Jalan Ampang 1');
    expect(screen.queryByTestId('map-selected-district')).toBeNull();
    await userEvent.click(within(screen.getByTestId('map-selected')).getByText('Open detail'));
    await waitFor(() =>
      expect(currentLocation.path).toBe('/deviceManagement/monitoringDevice/monitoringDeviceDetail?id=1'),
    );
  });

  it('shows the messages in Chinese', async () => {
    serve();
    await i18n.changeLanguage('zh-CN');
    renderApp(PAGE);
    expect(await screen.findByTestId('map-no-gps-3')).toHaveTextContent('当前设备未上传GPS，定位失败');
    await userEvent.click(screen.getByTestId('map-item-2'));
    expect(await screen.findByTestId('map-selected-district')).toHaveTextContent(
      '设备无详细地址，已定位到区县级',
    );
  });

  it('loads every page of devices and filters the list by name or serial', async () => {
    const many = Array.from({ length: 230 }, (_, i) =>
      device({ id: String(100 + i), name: `Fridge ${i}`, serial: `SER${i}`, lat: 3 + i / 1000, lng: 101 }),
    );
    const server = serve({ list: many });
    renderApp(PAGE);
    // 230 devices 110 m apart in a line: every one is on the map, alone or in a cluster.
    await waitFor(() => expect(drawnDevices()).toHaveLength(230));
    expect(bodies(server, '/api/device/pageDevices')).toEqual([
      { pageNum: 1, pageSize: 200 },
      { pageNum: 2, pageSize: 200 },
    ]);
    await userEvent.type(screen.getByTestId('map-search').querySelector('input')!, 'SER229');
    await waitFor(() => expect(drawnDevices()).toEqual(['329']));
    expect(screen.getByTestId('map-item-329')).toBeInTheDocument();
  });

  it('folds devices a few metres apart into one numbered cluster, which zooms in when opened', async () => {
    serve({
      list: [
        device({ id: '1', name: 'Vaccine fridge 1', lat: 3.1579, lng: 101.7116 }),
        device({
          id: '2',
          name: 'Vaccine fridge 2',
          serial: 'DEMO0002',
          state: 2,
          lat: 3.1579,
          lng: 101.7123,
        }),
        device({ id: '3', name: 'Cold store', serial: 'DEMO0003', lat: 3.0738, lng: 101.5183 }),
      ],
    });
    renderApp(PAGE);
    const cluster = await screen.findByTestId('map-cluster');
    expect(cluster.getAttribute('data-members')).toBe('1,2');
    expect(cluster).toHaveTextContent('2');
    // Coloured by its most urgent device (the alarm).
    expect(cluster.querySelector('circle')?.getAttribute('fill')).toBe(MARKER_COLORS[2]);
    expect(cluster).toHaveAccessibleName(/2 devices here: Vaccine fridge 1, Vaccine fridge 2/);
    expect(screen.getByTestId('map-marker-3')).toBeInTheDocument();
    // Offline background: degrees on the graticule and a scale bar.
    expect(screen.getAllByTestId('map-grid-label').length).toBeGreaterThan(0);
    expect(screen.getByTestId('map-scale')).toHaveTextContent(/\d+ (m|km)/);

    const zoom = Number(screen.getByTestId('map-canvas').getAttribute('data-zoom'));
    await userEvent.click(cluster);
    await waitFor(() => expect(screen.getByTestId('map-marker-2')).toBeInTheDocument());
    expect(screen.getByTestId('map-marker-1')).toBeInTheDocument();
    expect(Number(screen.getByTestId('map-canvas').getAttribute('data-zoom'))).toBeGreaterThanOrEqual(
      zoom + 2,
    );
  });
});

/** Ids of the devices on the map: single markers and the members of each cluster. */
function drawnDevices(): string[] {
  const singles = screen
    .queryAllByTestId(/^map-marker-/)
    .map((el) => el.dataset.testid!.slice('map-marker-'.length));
  const clustered = screen.queryAllByTestId('map-cluster').flatMap((el) => el.dataset.members!.split(','));
  return [...singles, ...clustered].sort();
}

import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { demoPowers, envelope, stubServer } from '../../test/fake-server';
import { currentLocation, renderApp, resetBrowserState } from '../../test/render-app';
import { COUNTS, device } from './test-fixtures';

const LIST = '/deviceManagement/monitoringDevice';
const devices = [device(), device({ id: '2', serial: 'DEMO0002', name: 'Freezer 2', state: 2 })];

function pageBodies(server: ReturnType<typeof stubServer>) {
  return server.mock.calls
    .filter(([input]) => String(input) === '/api/device/pageDevices')
    .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>);
}

function serve(extra: Parameters<typeof stubServer>[0] = {}) {
  return stubServer({
    ...extra,
    overrides: {
      '/api/device/pageDevices': (body) => ({
        list: body.keyword ? devices.filter((d) => d.serial.includes(String(body.keyword))) : devices,
        total: 2,
        pageNum: 1,
        pageSize: 20,
      }),
      '/api/device/countGroupByState': () => COUNTS,
      '/api/group/departmentGroups': () => [
        { id: 'd1', pid: '0', name: 'Demo Cold Chain', level: 1, groups: [] },
        {
          id: 'd2',
          pid: 'd1',
          name: 'Pharmacy',
          level: 2,
          groups: [
            {
              id: 'g1',
              pid: '0',
              departmentId: 'd2',
              name: 'Vaccine fridges',
              state: 1,
              deviceCount: 1,
              children: [],
            },
          ],
        },
      ],
      ...extra.overrides,
    },
  });
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

describe('monitor list', () => {
  it('renders the rows with translated state, sensor values and dates, and the state counts', async () => {
    serve();
    renderApp(LIST);
    // The first visit loads the page module (lazy route), which takes a while in jsdom.
    const row = await screen.findByTestId('device-row-DEMO0002');
    expect(within(row).getByText('Freezer 2')).toBeInTheDocument();
    expect(within(row).getByTestId('device-state')).toHaveTextContent('Alarm');
    expect(within(row).getByText('4.2 °C')).toBeInTheDocument();
    expect(within(row).getByText('55 %RH')).toBeInTheDocument();
    expect(within(row).getAllByText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)).toHaveLength(2);
    expect(await screen.findByTestId('state-tab-all')).toHaveTextContent('All (12)');
    expect(screen.getByTestId('state-tab-1')).toHaveTextContent('Normal (8)');
    expect(screen.getByTestId('state-tab-5')).toHaveTextContent('Under service (1)');
    expect(screen.getByTestId('state-tab-6')).toHaveTextContent('Disposed (0)');
  });

  it('filters by the state in the address and by the chosen tab', async () => {
    const server = serve();
    renderApp(`${LIST}?state=2`);
    await screen.findByTestId('device-row-DEMO0002');
    expect(pageBodies(server)[0]).toMatchObject({ state: 2, pageNum: 1 });
    await userEvent.click(await screen.findByTestId('state-tab-4'));
    await waitFor(() => expect(pageBodies(server).at(-1)).toMatchObject({ state: 4 }));
    expect(currentLocation.path).toBe(`${LIST}?state=4`);
  });

  it('filters by department or group', async () => {
    const server = serve();
    renderApp(LIST);
    await screen.findByTestId('device-row-DEMO0002');
    fireEvent.mouseDown(within(screen.getByTestId('device-place-filter')).getByRole('combobox'));
    await userEvent.click(await screen.findByTitle('Vaccine fridges'));
    await waitFor(() =>
      expect(pageBodies(server).at(-1)).toEqual({ pageNum: 1, pageSize: 20, groupId: 'g1' }),
    );
    fireEvent.mouseDown(within(screen.getByTestId('device-place-filter')).getByRole('combobox'));
    await userEvent.click(await screen.findByTitle('Pharmacy'));
    await waitFor(() =>
      expect(pageBodies(server).at(-1)).toEqual({ pageNum: 1, pageSize: 20, departmentId: 'd2' }),
    );
  });

  it('asks the server only after typing pauses for 200 ms', async () => {
    const server = serve();
    renderApp(LIST);
    await screen.findByTestId('device-row-DEMO0001');
    vi.useFakeTimers();
    const input = screen.getByTestId('device-search');
    fireEvent.change(input, { target: { value: 'DEMO' } });
    act(() => vi.advanceTimersByTime(150));
    fireEvent.change(input, { target: { value: 'DEMO0002' } });
    act(() => vi.advanceTimersByTime(199));
    expect(pageBodies(server).some((b) => 'keyword' in b)).toBe(false);
    act(() => vi.advanceTimersByTime(1));
    vi.useRealTimers();
    await waitFor(() =>
      expect(pageBodies(server).filter((b) => 'keyword' in b)).toEqual([
        { pageNum: 1, pageSize: 20, keyword: 'DEMO0002' },
      ]),
    );
    await waitFor(() => expect(screen.queryByTestId('device-row-DEMO0001')).toBeNull());
  });

  it('opens the detail page from a row', async () => {
    serve({ overrides: { '/api/device/deviceDetail': () => devices[1] } });
    renderApp(LIST);
    await userEvent.click(await screen.findByText('Freezer 2'));
    await waitFor(() => expect(currentLocation.path).toBe(`${LIST}/monitoringDeviceDetail?id=2`));
  });

  it('adds a monitor and shows its key once, with a copy button that reports failure', async () => {
    let added = false;
    const server = serve({
      overrides: {
        '/api/device/addDevice': () => {
          added = true;
          return { id: '3', deviceKey: 'k-secret-123' };
        },
      },
    });
    renderApp(LIST);
    await userEvent.click(await screen.findByTestId('add-device-open'));
    await userEvent.click(await screen.findByTestId('add-device-submit'));
    expect(await screen.findByText('Enter the serial number')).toBeInTheDocument();
    expect(added).toBe(false);

    await userEvent.type(screen.getByTestId('add-device-serial'), ' SIM1001 ');
    await userEvent.type(screen.getByTestId('add-device-name'), 'Fridge 3');
    const listCalls = pageBodies(server).length;
    await userEvent.click(screen.getByTestId('add-device-submit'));
    expect(await screen.findByTestId('device-key')).toHaveTextContent('k-secret-123');
    expect(screen.getByTestId('device-key-warning')).toHaveTextContent('It will not be shown again.');
    const sent = server.mock.calls.find(([input]) => String(input) === '/api/device/addDevice');
    expect(JSON.parse(String(sent?.[1]?.body))).toEqual({ serial: 'SIM1001', name: 'Fridge 3' });
    await waitFor(() => expect(pageBodies(server).length).toBeGreaterThan(listCalls));

    // fireEvent, not userEvent: userEvent installs its own clipboard on every call.
    const writeText = vi.fn(() => Promise.reject(new Error('denied')));
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    fireEvent.click(screen.getByTestId('device-key-copy'));
    expect(await screen.findByText('Copy failed')).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith('k-secret-123');

    // Closed and opened again: the form is back and the key is gone for good.
    await userEvent.click(screen.getByTestId('device-key-close'));
    await userEvent.click(screen.getByTestId('add-device-open'));
    expect(await screen.findByTestId('add-device-serial')).toHaveValue('');
    expect(screen.queryByText('k-secret-123')).toBeNull();
  });

  it('keeps the form open and shows the server message when the serial is refused', async () => {
    serve({
      overrides: {
        '/api/device/addDevice': envelope(null, 500, 'Serial number does not exist or is already used'),
      },
    });
    renderApp(LIST);
    await userEvent.click(await screen.findByTestId('add-device-open'));
    await userEvent.type(await screen.findByTestId('add-device-serial'), 'NOPE');
    await userEvent.type(screen.getByTestId('add-device-name'), 'x');
    await userEvent.click(screen.getByTestId('add-device-submit'));
    expect(await screen.findByText('Serial number does not exist or is already used')).toBeInTheDocument();
    expect(screen.getByTestId('add-device-serial')).toHaveValue('NOPE');
    expect(screen.queryByTestId('device-key')).toBeNull();
  });

  it('hides the add button without device:edit', async () => {
    const server = serve();
    const powers = server.getMockImplementation()!;
    server.mockImplementation(async (input, init) => {
      if (String(input) !== '/api/index/getUserPowers') return powers(input, init);
      const full = demoPowers();
      return envelope({ ...full, authTags: full.authTags.filter((tag) => tag !== 'device:edit') });
    });
    renderApp(LIST);
    await screen.findByTestId('device-row-DEMO0001');
    expect(screen.queryByTestId('add-device-open')).toBeNull();
  });
});

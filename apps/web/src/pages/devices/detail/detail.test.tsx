import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../i18n';
import { stubServer } from '../../../test/fake-server';
import { renderApp, resetBrowserState } from '../../../test/render-app';
import { device, sensor } from '../test-fixtures';

const DETAIL = '/deviceManagement/monitoringDevice/monitoringDeviceDetail';

function historyBodies(server: ReturnType<typeof stubServer>) {
  return server.mock.calls
    .filter(([input]) => String(input) === '/api/device/historyData')
    .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, number | string>);
}

function serve(history: Record<string, unknown>, detail = device()) {
  return stubServer({
    overrides: {
      '/api/device/deviceDetail': () => detail,
      '/api/device/historyData': () => history,
      '/api/device/resetDeviceKey': () => ({ deviceKey: 'new-key-456' }),
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

describe('monitor detail', () => {
  it('shows the header, a card per sensor and the statistics of the last 24 hours', async () => {
    const now = Date.now();
    const server = serve({
      points: [
        [now - 600_000, 3.5],
        [now - 300_000, 5.25],
      ],
      min: 3.5,
      max: 5.25,
      avg: 4.375,
      mkt: 4.41,
    });
    renderApp(`${DETAIL}?id=1`);
    expect(await screen.findByTestId('device-name')).toHaveTextContent('Vaccine fridge 1');
    expect(screen.getByTestId('device-serial')).toHaveTextContent('DEMO0001');
    expect(screen.getByTestId('device-state')).toHaveTextContent('Normal');
    expect(screen.getByText('87%')).toBeInTheDocument();

    const temperature = screen.getByTestId('sensor-card-1');
    expect(within(temperature).getByText('Temperature')).toBeInTheDocument();
    expect(within(temperature).getByTestId('sensor-value')).toHaveTextContent('4.2°C');
    expect(within(temperature).getByText('Range: -40 ~ 85 °C')).toBeInTheDocument();
    expect(within(screen.getByTestId('sensor-card-2')).getByTestId('sensor-value')).toHaveTextContent(
      '55%RH',
    );

    await waitFor(() => expect(screen.getByTestId('history-points')).toHaveAttribute('data-count', '2'));
    expect(screen.getByTestId('history-stat-min')).toHaveTextContent('3.50');
    expect(screen.getByTestId('history-stat-max')).toHaveTextContent('5.25');
    expect(screen.getByTestId('history-stat-avg')).toHaveTextContent('4.38');
    expect(screen.getByTestId('history-stat-mkt')).toHaveTextContent('4.41');

    const [first] = historyBodies(server);
    expect(first).toMatchObject({ sensorId: 's1' });
    expect(Number(first?.endTime) - Number(first?.startTime)).toBe(86_400_000);
    expect(Number(first?.maxPoints)).toBeGreaterThanOrEqual(50);

    await userEvent.click(screen.getByTestId('history-preset-7d'));
    await waitFor(() => {
      const last = historyBodies(server).at(-1);
      expect(Number(last?.endTime) - Number(last?.startTime)).toBe(7 * 86_400_000);
    });
  });

  it('shows empty states when a sensor has no reading and no history', async () => {
    serve(
      { points: [], min: null, max: null, avg: null, mkt: null },
      device({ sensors: [sensor({ value: null, updateTime: null })] }),
    );
    renderApp(`${DETAIL}?id=1`);
    expect(await screen.findByTestId('history-empty')).toHaveTextContent('No data in this period');
    expect(screen.getByTestId('sensor-value')).toHaveTextContent('No reading yet');
    expect(screen.getByTestId('history-stat-min')).toHaveTextContent('-');
  });

  it('joins the title and the device name with the colon of the language', async () => {
    serve({ points: [], min: null, max: null, avg: null, mkt: null });
    const view = renderApp(`${DETAIL}?id=1`);
    expect(await screen.findByTestId('device-name')).toBeInTheDocument();
    expect(screen.getByTestId('page-title')).toHaveTextContent('Monitor detail: Vaccine fridge 1');
    view.unmount();

    await i18n.changeLanguage('zh-CN');
    serve({ points: [], min: null, max: null, avg: null, mkt: null });
    renderApp(`${DETAIL}?id=1`);
    expect(await screen.findByTestId('device-name')).toBeInTheDocument();
    expect(screen.getByTestId('page-title').textContent).toMatch(/^\S+：Vaccine fridge 1$/);
  });

  it('without an id says so and links back to the list', async () => {
    stubServer();
    renderApp(DETAIL);
    expect(await screen.findByTestId('device-empty')).toHaveTextContent('No monitor selected');
    expect(screen.getByTestId('page-title')).toHaveTextContent('Monitor detail');
  });

  it('resets the device key after confirmation and shows the new key once', async () => {
    const server = serve({ points: [], min: null, max: null, avg: null, mkt: null });
    renderApp(`${DETAIL}?id=1`);
    await userEvent.click(await screen.findByTestId('reset-key-open'));
    expect(server.mock.calls.some(([input]) => String(input) === '/api/device/resetDeviceKey')).toBe(false);
    await userEvent.click(await screen.findByTestId('reset-key-confirm'));
    expect(await screen.findByTestId('device-key')).toHaveTextContent('new-key-456');
    expect(screen.getByTestId('device-key-warning')).toBeInTheDocument();
  });
});

import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { envelope, type FakeServerOptions, stubServer } from '../../test/fake-server';
import { currentLocation, renderApp, resetBrowserState } from '../../test/render-app';
import { device } from '../devices/test-fixtures';

const PAGE = '/deviceManagement/monitoringDevice/openInterface';
const monitor = device({ id: '1', serial: 'DEMO0001', name: 'Vaccine fridge 1' });

function serve(authTags?: string[], overrides: FakeServerOptions['overrides'] = {}) {
  return stubServer({
    authTags,
    overrides: {
      '/api/system/clientConfig': () => ({
        productName: 'ColdChain',
        helpUrl: '',
        contact: { phone: '', email: '', address: '' },
        version: '0.1.0',
        mapTileUrl: '',
        deviceMqttUrl: 'mqtt://iot.example.org:1883',
        deviceHttpUrl: 'https://cold.example.org/device/v1/up',
      }),
      '/api/device/deviceDetail': () => monitor,
      '/api/device/resetDeviceKey': () => ({ deviceKey: 'fresh-key-789' }),
      ...overrides,
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

describe('open interface (device connection)', () => {
  it('shows the broker, topics, HTTP endpoint, serial and payload examples for the device', async () => {
    const server = serve();
    renderApp(`${PAGE}?id=1`);
    expect(await screen.findByTestId('oi-mqtt-url')).toHaveTextContent('mqtt://iot.example.org:1883');
    expect(screen.getByTestId('oi-serial')).toHaveTextContent('DEMO0001');
    expect(screen.getByTestId('oi-topic-up')).toHaveTextContent('cc/v1/DEMO0001/up');
    expect(screen.getByTestId('oi-topic-event')).toHaveTextContent('cc/v1/DEMO0001/event');
    expect(screen.getByTestId('oi-topic-down')).toHaveTextContent('cc/v1/DEMO0001/down');
    expect(screen.getByTestId('oi-topic-ack')).toHaveTextContent('cc/v1/DEMO0001/ack');
    expect(screen.getByTestId('oi-topic-error')).toHaveTextContent('cc/v1/DEMO0001/error');
    expect(screen.getByTestId('oi-http-url')).toHaveTextContent('POST https://cold.example.org/device/v1/up');
    expect(screen.getByTestId('oi-http-event-url')).toHaveTextContent(
      'POST https://cold.example.org/device/v1/event',
    );
    expect(screen.getByTestId('oi-http-auth')).toHaveTextContent('Basic base64(DEMO0001:<device key>)');
    // The example uses the device's own channels and is a valid up payload.
    const up = JSON.parse(screen.getByTestId('oi-example-up').textContent!);
    expect(up.records[0].channels.map((c: { ch: number }) => c.ch)).toEqual([1, 2]);
    expect(up.records[0]).toMatchObject({ lat: expect.any(Number), lng: expect.any(Number) });
    expect(JSON.parse(screen.getByTestId('oi-example-event').textContent!)).toMatchObject({
      event: 'powerOff',
    });
    expect(screen.getByTestId('oi-example-curl')).toHaveTextContent("-u 'DEMO0001:<device key>'");
    expect(
      server.mock.calls
        .filter(([input]) => String(input) === '/api/device/deviceDetail')
        .map(([, init]) => JSON.parse(String(init?.body)))[0],
    ).toEqual({ id: '1' });
  });

  it('copies a topic, and says "Copy failed" when the browser refuses', async () => {
    serve();
    renderApp(`${PAGE}?id=1`);
    await screen.findByTestId('oi-topic-up');
    // fireEvent, not userEvent: userEvent installs its own clipboard on every call.
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    fireEvent.click(screen.getByTestId('oi-topic-up-copy'));
    expect(await screen.findByText('Copied')).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith('cc/v1/DEMO0001/up');

    const refuse = vi.fn(() => Promise.reject(new Error('denied')));
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: refuse }, configurable: true });
    fireEvent.click(screen.getByTestId('oi-mqtt-url-copy'));
    expect(await screen.findByText('Copy failed')).toBeInTheDocument();
    expect(refuse).toHaveBeenCalledWith('mqtt://iot.example.org:1883');
  });

  it('resets the key after confirmation and shows the new key once, with copy', async () => {
    const server = serve(['device:edit']);
    renderApp(`${PAGE}?id=1`);
    await userEvent.click(await screen.findByTestId('reset-key-open'));
    expect(server.mock.calls.some(([input]) => String(input) === '/api/device/resetDeviceKey')).toBe(false);
    await userEvent.click(await screen.findByTestId('reset-key-confirm'));
    expect(await screen.findByTestId('device-key')).toHaveTextContent('fresh-key-789');
    const writeText = vi.fn(() => Promise.reject(new Error('denied')));
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    fireEvent.click(screen.getByTestId('device-key-copy'));
    expect(await screen.findByText('Copy failed')).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith('fresh-key-789');
  });

  it('says when no device is chosen or it cannot be read, in Chinese too', async () => {
    serve(undefined, { '/api/device/deviceDetail': envelope(null, 500, 'Device not found') });
    const none = renderApp(PAGE);
    expect(await screen.findByTestId('open-interface-empty')).toHaveTextContent('No device chosen');
    none.unmount();
    await i18n.changeLanguage('zh-CN');
    renderApp(`${PAGE}?id=99`);
    expect(await screen.findByTestId('open-interface-empty')).toHaveTextContent('设备不存在或无权限');
  });

  it('is reached from the device detail', async () => {
    serve(['device:edit'], {
      '/api/device/historyData': () => ({ points: [], min: null, max: null, avg: null, mkt: null }),
    });
    renderApp('/deviceManagement/monitoringDevice/monitoringDeviceDetail?id=1');
    await userEvent.click(await screen.findByTestId('open-interface-link'));
    await waitFor(() => expect(currentLocation.path).toBe(`${PAGE}?id=1`));
    expect(await screen.findByTestId('oi-serial')).toHaveTextContent('DEMO0001');
  });
});

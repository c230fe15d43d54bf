import type { DeviceView } from '@coldchain/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../i18n';
import { stubServer } from '../../../test/fake-server';
import { renderApp, resetBrowserState } from '../../../test/render-app';
import { device, sensor } from '../test-fixtures';

const DETAIL = '/deviceManagement/monitoringDevice/monitoringDeviceDetail?id=1';
const WAIT = { timeout: 20_000 };
const EDIT = '/api/device/editSensor';

/** A device whose sensors the fake server keeps, so a saved channel reads back. */
function serve(initial: DeviceView) {
  let current = initial;
  return stubServer({
    overrides: {
      '/api/device/deviceDetail': () => current,
      '/api/device/historyData': () => ({ points: [], min: null, max: null, avg: null, mkt: null }),
      [EDIT]: (body) => {
        current = {
          ...current,
          sensors: current.sensors.map((s) =>
            s.id === body.id
              ? {
                  ...s,
                  name: String(body.name),
                  remark: String(body.remark),
                  enabled: body.enabled === true,
                  state: body.enabled === true ? s.state : 0,
                }
              : s,
          ),
        };
        return current;
      },
    },
  });
}

const edits = (server: ReturnType<typeof stubServer>) =>
  server.mock.calls
    .filter(([input]) => String(input) === EDIT)
    .map(([, init]) => JSON.parse(String(init?.body)));

// The page is loaded lazily by the router: load it once up front so each test's wait is for data.
beforeAll(async () => {
  await import('.');
}, 60_000);

beforeEach(async () => {
  resetBrowserState();
  localStorage.setItem('accessToken', 't');
  await i18n.changeLanguage('en');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('a new monitor and its stored words, in both languages (issue 20)', () => {
  it.each([
    ['en', 'Awaiting first data', 'Mains', 'Defrosting', 'Temperature 1'],
    ['zh-CN', '等待首次数据', '市电', '除霜', '温度1'],
  ] as const)(
    '%s: never reported reads as awaiting data; power, mode and default sensor names in words',
    async (language, awaiting, power, mode, sensorName) => {
      await i18n.changeLanguage(language);
      serve(
        device({
          state: 4,
          lastSeenTime: null,
          power: 'mains',
          mode: 'defrost',
          sensors: [sensor({ state: 4, updateTime: null, value: null, name: 'Temperature 1' })],
        }),
      );
      renderApp(DETAIL);
      const card = await screen.findByTestId('sensor-card-1', {}, WAIT);
      expect(within(card).getByTestId('channel-state')).toHaveTextContent(awaiting);
      expect(within(card).getByText(sensorName)).toBeInTheDocument();
      const header = screen.getByTestId('device-header');
      expect(header).toHaveTextContent(power);
      expect(header).toHaveTextContent(mode);
      expect(screen.getAllByTestId('device-state')[0]).toHaveTextContent(awaiting);
      expect(document.body).not.toHaveTextContent(/\bmains\b|\bdefrost\b/);
    },
  );

  it('a monitor that has reported and then went silent is still offline', async () => {
    serve(device({ state: 4, sensors: [sensor({ state: 4 })] }));
    renderApp(DETAIL);
    const card = await screen.findByTestId('sensor-card-1', {}, WAIT);
    expect(within(card).getByTestId('channel-state')).toHaveTextContent('Offline');
    expect(screen.getAllByTestId('device-state')[0]).toHaveTextContent('Offline');
  });
});

describe('sensor channel state and remarks on the monitor detail (spec sections 3-4)', () => {
  it('shows each channel’s state and remarks', async () => {
    serve(
      device({
        editable: true,
        sensors: [
          sensor({ state: 2, remark: 'Probe near the door' }),
          sensor({ id: 's2', channel: 2, name: 'Humidity', state: 4 }),
        ],
      }),
    );
    renderApp(DETAIL);
    const first = await screen.findByTestId('sensor-card-1', {}, WAIT);
    expect(within(first).getByTestId('channel-state')).toHaveTextContent('Alarm');
    expect(within(first).getByTestId('sensor-remark')).toHaveTextContent('Remarks: Probe near the door');
    const second = screen.getByTestId('sensor-card-2');
    expect(within(second).getByTestId('channel-state')).toHaveTextContent('Offline');
    expect(within(second).queryByTestId('sensor-remark')).toBeNull();
  });

  it('edits a channel’s name and remarks and switches it off; the card shows the result', async () => {
    const server = serve(device({ editable: true }));
    renderApp(DETAIL);
    await userEvent.click(await screen.findByTestId('edit-sensor-open-1', {}, WAIT));
    const name = await screen.findByTestId('edit-sensor-name');
    await waitFor(() => expect(name).toHaveValue('Temperature'));
    await userEvent.clear(name);
    await userEvent.type(name, 'Upper shelf');
    await userEvent.type(screen.getByTestId('edit-sensor-remark'), 'Calibrated in May');
    await userEvent.click(screen.getByTestId('edit-sensor-enabled'));
    expect(screen.getByTestId('edit-sensor-disabled-hint')).toHaveTextContent('raises no alarm');
    await userEvent.click(screen.getByTestId('edit-sensor-submit'));

    await waitFor(() =>
      expect(edits(server)).toEqual([
        { id: 's1', name: 'Upper shelf', remark: 'Calibrated in May', enabled: false },
      ]),
    );
    expect(await screen.findByText('Sensor saved')).toBeInTheDocument();
    const card = screen.getByTestId('sensor-card-1');
    await waitFor(() => expect(within(card).getByTestId('channel-state')).toHaveTextContent('Disabled'));
    expect(card).toHaveTextContent('Upper shelf');
    expect(within(card).getByTestId('sensor-remark')).toHaveTextContent('Calibrated in May');
  });

  it('a double click on Save sends the change once and says "saved" once (the 1 s guard)', async () => {
    const server = serve(device({ editable: true }));
    renderApp(DETAIL);
    await userEvent.click(await screen.findByTestId('edit-sensor-open-1', {}, WAIT));
    await waitFor(() => expect(screen.getByTestId('edit-sensor-name')).toHaveValue('Temperature'));
    await userEvent.type(screen.getByTestId('edit-sensor-remark'), 'Door side');
    await userEvent.dblClick(screen.getByTestId('edit-sensor-submit'));
    expect(await screen.findByText('Sensor saved')).toBeInTheDocument();
    // Long enough for a second answer and its toast to arrive, were the repeat sent.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(edits(server)).toHaveLength(1);
    expect(screen.getAllByText('Sensor saved')).toHaveLength(1);
  }, 40_000);

  it('does not send a channel without a name', async () => {
    const server = serve(device({ editable: true }));
    renderApp(DETAIL);
    await userEvent.click(await screen.findByTestId('edit-sensor-open-1', {}, WAIT));
    const name = await screen.findByTestId('edit-sensor-name');
    await waitFor(() => expect(name).toHaveValue('Temperature'));
    await userEvent.clear(name);
    await userEvent.click(screen.getByTestId('edit-sensor-submit'));
    expect(await screen.findByText('Please enter the sensor name')).toBeInTheDocument();
    expect(edits(server)).toHaveLength(0);
  });

  it('offers no edit on a device the user may only view', async () => {
    serve(device({ editable: false }));
    renderApp(DETAIL);
    await screen.findByTestId('sensor-card-1', {}, WAIT);
    expect(screen.queryByTestId('edit-sensor-open-1')).toBeNull();
  });

  it('names the channel states in Chinese', async () => {
    serve(
      device({ editable: true, sensors: [sensor({ state: 5 }), sensor({ id: 's2', channel: 2, state: 3 })] }),
    );
    await i18n.changeLanguage('zh-CN');
    renderApp(DETAIL);
    const first = await screen.findByTestId('sensor-card-1', {}, WAIT);
    expect(within(first).getByTestId('channel-state')).toHaveTextContent('维修保养');
    expect(first).toHaveTextContent('通道 1');
    expect(within(screen.getByTestId('sensor-card-2')).getByTestId('channel-state')).toHaveTextContent(
      '异常',
    );
    expect(screen.getByTestId('edit-sensor-open-1')).toHaveTextContent('编辑');
  });
});

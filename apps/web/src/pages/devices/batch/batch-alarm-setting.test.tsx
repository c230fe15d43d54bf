import { AuthTags, buildMenuEntries } from '@coldchain/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../i18n';
import { envelope, stubServer } from '../../../test/fake-server';
import { renderApp, resetBrowserState } from '../../../test/render-app';
import { COUNTS, device } from '../test-fixtures';

const LIST = '/deviceManagement/monitoringDevice';
const devices = [device(), device({ id: '2', serial: 'DEMO0002', name: 'Freezer 2', state: 2 })];
const BATCH = '/api/deviceAlarmRule/batchSaveAlarmSetting';

function serve(authTags: string[] = [...AuthTags], answer: unknown = () => ({ ids: ['5', '6'], count: 2 })) {
  const tags = new Set(authTags);
  return stubServer({
    user: { id: '7' },
    overrides: {
      '/api/index/getUserPowers': () => ({
        menus: buildMenuEntries(tags, tags),
        authTags,
        serviceAuthTags: [],
      }),
      '/api/device/pageDevices': () => ({ list: devices, total: 2, pageNum: 1, pageSize: 20 }),
      '/api/device/countGroupByState': () => COUNTS,
      '/api/personnel/memberOptions': () => [{ id: '7', name: 'Demo Admin' }],
      [BATCH]: answer as never,
    },
  });
}

function bodies(server: ReturnType<typeof stubServer>, path: string) {
  return server.mock.calls
    .filter(([input]) => String(input) === path)
    .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>);
}

async function openWithBoth() {
  renderApp(LIST);
  await screen.findByTestId('device-row-DEMO0002');
  for (const serial of ['DEMO0001', 'DEMO0002'])
    await userEvent.click(within(screen.getByTestId(`device-row-${serial}`)).getByRole('checkbox'));
}

beforeEach(async () => {
  resetBrowserState();
  localStorage.setItem('accessToken', 't');
  await i18n.changeLanguage('en');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('batch alarm setting on monitors', () => {
  it('asks to select a monitor first', async () => {
    const server = serve();
    renderApp(LIST);
    await screen.findByTestId('device-row-DEMO0002');
    await userEvent.click(screen.getByTestId('batch-alarm-setting-open'));
    expect(
      (await screen.findAllByText('Select at least one device, time period or record')).length,
    ).toBeGreaterThan(0);
    expect(screen.queryByText('Alarm setting for 2 monitors')).toBeNull();
    expect(bodies(server, BATCH)).toEqual([]);
  });

  it('saves the rule on a channel of every selected monitor', async () => {
    const server = serve();
    await openWithBoth();
    await userEvent.click(screen.getByTestId('batch-alarm-setting-open'));
    expect(await screen.findByText('Alarm setting for 2 monitors')).toBeInTheDocument();
    const channel = screen.getByTestId('setting-channel');
    await userEvent.clear(channel);
    await userEvent.type(channel, '2');
    await userEvent.type(screen.getByTestId('setting-max'), '8');
    await userEvent.click(screen.getByTestId('setting-submit'));
    await waitFor(() => expect(bodies(server, BATCH)).toHaveLength(1));
    expect(bodies(server, BATCH)[0]).toMatchObject({
      deviceIds: ['1', '2'],
      carrier: 'channel',
      channel: 2,
      alarmType: 'overLimit',
      max: 8,
      notifierIds: ['7'],
    });
    expect(await screen.findByText('Alarm setting saved on 2 monitors')).toBeInTheDocument();
  });

  it('needs a channel for a channel setting and a limit for an over-limit alarm', async () => {
    const server = serve();
    await openWithBoth();
    await userEvent.click(screen.getByTestId('batch-alarm-setting-open'));
    await userEvent.clear(await screen.findByTestId('setting-channel'));
    await userEvent.click(screen.getByTestId('setting-submit'));
    expect(await screen.findByText('Select the channel the setting applies to')).toBeInTheDocument();
    await userEvent.type(screen.getByTestId('setting-channel'), '1');
    await userEvent.click(screen.getByTestId('setting-submit'));
    expect(await screen.findByText('Enter at least one limit for this alarm type')).toBeInTheDocument();
    expect(bodies(server, BATCH)).toEqual([]);
  });

  it('sends a device setting without a channel, and shows the server’s refusal', async () => {
    const server = serve([...AuthTags], envelope(null, 500, 'The device does not exist'));
    await openWithBoth();
    await userEvent.click(screen.getByTestId('batch-alarm-setting-open'));
    await userEvent.click(await screen.findByText('Each monitor'));
    expect(screen.queryByTestId('setting-channel')).toBeNull();
    await userEvent.type(screen.getByTestId('setting-max'), '8');
    await userEvent.click(screen.getByTestId('setting-submit'));
    await waitFor(() => expect(bodies(server, BATCH)).toHaveLength(1));
    expect(bodies(server, BATCH)[0]).toMatchObject({ deviceIds: ['1', '2'], carrier: 'device' });
    expect(bodies(server, BATCH)[0]).not.toHaveProperty('channel');
    expect(await screen.findByText('The device does not exist')).toBeInTheDocument();
    expect(screen.getByText('Alarm setting for 2 monitors')).toBeInTheDocument();
  });

  it('is not offered without alarm:edit', async () => {
    serve(AuthTags.filter((tag) => tag !== 'alarm:edit'));
    renderApp(LIST);
    await screen.findByTestId('device-row-DEMO0002');
    expect(screen.queryByTestId('batch-alarm-setting-open')).toBeNull();
  });
});

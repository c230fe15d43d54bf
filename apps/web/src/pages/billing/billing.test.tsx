import { buildMenuEntries, type OrderView, ParameterState } from '@coldchain/contract';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { calledPaths, demoPowers, sentBody, stubServer } from '../../test/fake-server';
import { currentLocation, renderApp, resetBrowserState } from '../../test/render-app';
import { device } from '../devices/test-fixtures';

const PAY = '/deviceManagement/monitoringDevice/monitoringDevicePay';
const RECOVERY = '/deviceManagement/monitoringDevice/monitoringDeviceRecovery';
const DETAIL = '/deviceManagement/monitoringDevice/monitoringDeviceDetail';

const devices = [device(), device({ id: '2', serial: 'DEMO0002', name: 'Freezer 2', version: 'premium' })];
const prices = {
  currency: 'RM',
  renewal: { basic: 10, standard: 15, elite: 20, premium: 30 },
  recovery: { basic: 20, standard: 30, elite: 40, premium: 50 },
  recoveryMonthDays: 30,
};

function order(overrides: Partial<OrderView> = {}): OrderView {
  return {
    id: '11',
    orderNo: 'CC20260601000011',
    kind: 'renewal',
    status: 1,
    months: 3,
    startTime: null,
    endTime: null,
    amount: 135,
    currency: 'RM',
    paymentMethod: 'approval',
    invoiceStatus: 0,
    createdBy: 'u1',
    createdByName: 'Demo Admin',
    createTime: Date.UTC(2026, 5, 1, 8, 0, 0),
    decideTime: null,
    lines: [],
    ...overrides,
  };
}

/** Powers whose menus route every page but whose tags lack device:topUp. */
function powersWithoutTopUp() {
  const full = demoPowers();
  const tags = new Set(full.authTags.filter((t) => t !== 'device:topUp'));
  const allTags = new Set(full.authTags);
  return { ...full, menus: buildMenuEntries(allTags, allTags), authTags: [...tags] };
}

function serve(overrides: NonNullable<Parameters<typeof stubServer>[0]>['overrides'] = {}) {
  return stubServer({
    overrides: {
      '/api/order/priceList': () => prices,
      '/api/device/pageDevices': () => ({ list: devices, total: 2, pageNum: 1, pageSize: 200 }),
      '/api/order/pageOrders': () => ({ list: [order()], total: 1, pageNum: 1, pageSize: 10 }),
      '/api/device/monitoringDevicePay': (body) =>
        order({ id: '12', orderNo: 'CC20260601000012', months: Number(body.months), amount: 90 }),
      '/api/device/deviceDetail': () => devices[0],
      '/api/device/historyData': () => ({ points: [], min: null, max: null, avg: null, mkt: null }),
      '/api/device/serviceLapses': (body) => ({ deviceId: body.deviceId, expireTime: 0, lapses: [] }),
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

describe('monitor renewal', () => {
  it('shows the selected devices with their tier price, the months and the total in RM', async () => {
    serve();
    renderApp(`${PAY}?ids=1,2`);
    await waitFor(() => expect(screen.getByTestId('order-total')).toHaveTextContent('RM 540.00'), {
      timeout: 20_000,
    });
    // 12 months by default: standard RM 15 x 12 + premium RM 30 x 12.
    const row = screen
      .getAllByText('Freezer 2 (DEMO0002)')
      .find((e) => e.closest('tr'))!
      .closest('tr')!;
    expect(row).toHaveTextContent('Premium');
    expect(row).toHaveTextContent('RM 30.00');
    expect(row).toHaveTextContent('RM 360.00');
    const months = screen.getByTestId('months-input');
    await userEvent.clear(months);
    await userEvent.type(months, '2');
    await waitFor(() => expect(screen.getByTestId('order-total')).toHaveTextContent('RM 90.00'));
  });

  it('names the currency yuan (元) in Chinese with the same amount', async () => {
    serve();
    await i18n.changeLanguage('zh-CN');
    renderApp(`${PAY}?ids=1`);
    await waitFor(() => expect(screen.getByTestId('order-total')).toHaveTextContent('180.00 元'), {
      timeout: 20_000,
    });
  });

  it('refuses to submit without a device or with months that are not a whole number', async () => {
    const server = serve();
    renderApp(PAY);
    const submit = await screen.findByTestId('pay-submit');
    const months = screen.getByTestId('months-input');
    await userEvent.clear(months);
    await userEvent.type(months, '1.5');
    await userEvent.click(submit);
    expect(await screen.findByText('Select at least one device, time period or record')).toBeInTheDocument();
    expect(
      await screen.findByText('The renewal duration must be a whole number of months, at least 1'),
    ).toBeInTheDocument();
    expect(server.mock.calls.some(([p]) => String(p) === '/api/device/monitoringDevicePay')).toBe(false);
  });

  it('places an order pending approval and lists orders with their status', async () => {
    const server = serve();
    renderApp(`${PAY}?ids=2`);
    await waitFor(() => expect(screen.getByTestId('order-total')).toHaveTextContent('RM 360.00'), {
      timeout: 20_000,
    });
    const months = screen.getByTestId('months-input');
    await userEvent.clear(months);
    await userEvent.type(months, '3');
    await userEvent.click(screen.getByTestId('pay-submit'));
    expect(await screen.findByTestId('order-placed')).toHaveTextContent(
      'Order CC20260601000012 placed, pending approval. RM 90.00',
    );
    expect(sentBody(server, '/api/device/monitoringDevicePay')).toEqual({ deviceIds: ['2'], months: 3 });
    const listed = await screen.findByTestId('order-row-11');
    expect(within(listed).getByTestId('order-status')).toHaveTextContent('Pending payment or approval');
    expect(listed).toHaveTextContent('RM 135.00');
    expect(listed).toHaveTextContent('Operator approval');
    expect(listed).toHaveTextContent('Demo Admin');
  });

  it('cancels a pending order', async () => {
    const server = serve({ '/api/order/cancelOrder': () => order({ status: 4 }) });
    renderApp(PAY);
    const row = await screen.findByTestId('order-row-11');
    await userEvent.click(within(row).getByTestId('order-cancel'));
    await userEvent.click(await screen.findByTestId('order-cancel-confirm'));
    await waitFor(() => expect(sentBody(server, '/api/order/cancelOrder')).toEqual({ id: '11' }));
  });

  it('says "Cannot top up without permission" instead of the form without device:topUp', async () => {
    const server = serve({ '/api/index/getUserPowers': () => powersWithoutTopUp() });
    renderApp(PAY);
    expect(await screen.findByTestId('top-up-refused')).toHaveTextContent('Cannot top up without permission');
    expect(screen.queryByTestId('pay-submit')).toBeNull();
    expect(server.mock.calls.some(([p]) => String(p) === '/api/order/pageOrders')).toBe(false);
  });
});

describe('from the device list', () => {
  it('renews the selected monitors: the renewal page opens with them selected', async () => {
    serve({ '/api/device/countGroupByState': () => ({}) });
    renderApp('/deviceManagement/monitoringDevice');
    for (const serial of ['DEMO0001', 'DEMO0002']) {
      const row = await screen.findByTestId(`device-row-${serial}`);
      await userEvent.click(within(row).getByRole('checkbox'));
    }
    await userEvent.click(screen.getByTestId('batch-renew'));
    await waitFor(() => expect(currentLocation.path).toBe(`${PAY}?ids=1,2`));
    await waitFor(() => expect(screen.getByTestId('order-total')).toHaveTextContent('RM 540.00'), {
      timeout: 20_000,
    });
  });

  it('offers no renewal without device:topUp', async () => {
    serve({
      '/api/device/countGroupByState': () => ({}),
      '/api/index/getUserPowers': () => powersWithoutTopUp(),
    });
    renderApp('/deviceManagement/monitoringDevice');
    await screen.findByTestId('device-row-DEMO0001');
    expect(screen.queryByTestId('batch-renew')).toBeNull();
  });
});

describe('data recovery', () => {
  it('prices per 30-day month and refuses to submit without a period', async () => {
    const server = serve({
      '/api/order/pageOrders': () => ({ list: [], total: 0, pageNum: 1, pageSize: 10 }),
    });
    renderApp(`${RECOVERY}?ids=1`);
    expect((await screen.findAllByText('Vaccine fridge 1 (DEMO0001)')).length).toBe(2);
    expect(screen.getByRole('columnheader', { name: 'Price per 30-day month' })).toBeInTheDocument();
    expect(screen.getByText(/a part month counts as a whole month/)).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('recovery-submit'));
    expect(await screen.findByText('Select at least one device, time period or record')).toBeInTheDocument();
    expect(server.mock.calls.some(([p]) => String(p) === '/api/device/monitoringDeviceRecovery')).toBe(false);
  });

  it('places a recovery order for a typed period, charged for whole 30-day months', async () => {
    const server = serve({
      '/api/order/pageOrders': () => ({ list: [], total: 0, pageNum: 1, pageSize: 10 }),
      '/api/device/monitoringDeviceRecovery': () =>
        order({ id: '13', orderNo: 'CC20260601000013', kind: 'recovery', months: 2, amount: 60 }),
    });
    renderApp(`${RECOVERY}?ids=1`);
    await screen.findAllByText('Vaccine fridge 1 (DEMO0001)');
    const [start, end] = [...document.querySelectorAll<HTMLInputElement>('.ant-picker-range input')] as [
      HTMLInputElement,
      HTMLInputElement,
    ];
    await userEvent.click(start);
    fireEvent.change(start, { target: { value: '2025-01-01 00:00:00' } });
    fireEvent.keyDown(start, { key: 'Enter' });
    fireEvent.change(end, { target: { value: '2025-02-01 00:00:00' } });
    fireEvent.keyDown(end, { key: 'Enter' });
    // 31 days: two 30-day months at RM 30 for a standard monitor.
    await waitFor(() => expect(screen.getByTestId('order-total')).toHaveTextContent('RM 60.00'));
    await userEvent.click(screen.getByTestId('recovery-submit'));
    expect(await screen.findByTestId('order-placed')).toHaveTextContent('CC20260601000013');
    const body = sentBody(server, '/api/device/monitoringDeviceRecovery') as Record<string, unknown>;
    expect(body.deviceIds).toEqual(['1']);
    expect(Number(body.endTime) - Number(body.startTime)).toBe(31 * 86_400_000);
  });
});

describe('data recovery of lapsed service periods', () => {
  const DAY = 86_400_000;
  const lapsedAt = Date.UTC(2026, 0, 1, 0, 0, 0);
  const renewedAt = lapsedAt + 40 * DAY;
  const lapses = {
    deviceId: '1',
    expireTime: Date.UTC(2026, 3, 1),
    lapses: [
      {
        startTime: lapsedAt - 100 * DAY,
        endTime: lapsedAt - 90 * DAY,
        open: false,
        recovery: 'full',
        hidden: [],
      },
      {
        startTime: lapsedAt,
        endTime: renewedAt,
        open: false,
        recovery: 'partial',
        hidden: [{ startTime: lapsedAt + 10 * DAY, endTime: renewedAt }],
      },
    ],
  };

  it('offers the one device its lapsed periods and pre-fills the part still hidden', async () => {
    const server = serve({
      '/api/order/pageOrders': () => ({ list: [], total: 0, pageNum: 1, pageSize: 10 }),
      '/api/device/serviceLapses': () => lapses,
      '/api/device/monitoringDeviceRecovery': () =>
        order({ id: '14', orderNo: 'CC20260601000014', kind: 'recovery', months: 1, amount: 30 }),
    });
    renderApp(`${RECOVERY}?ids=1`);
    const picker = await screen.findByTestId('lapse-picker');
    expect(screen.getByText(/kept but hidden from history, charts and exports/)).toBeInTheDocument();
    await waitFor(() => expect(sentBody(server, '/api/device/serviceLapses')).toEqual({ deviceId: '1' }));
    fireEvent.mouseDown(within(picker).getByRole('combobox'));
    const recovered = await screen.findByText(/· recovered$/, {
      selector: '.ant-select-item-option-content',
    });
    expect(recovered.closest('.ant-select-item-option')).toHaveClass('ant-select-item-option-disabled');
    fireEvent.click(screen.getByText(/· partly recovered$/, { selector: '.ant-select-item-option-content' }));
    const format = (ms: number) => dayjs(ms).format('YYYY-MM-DD HH:mm:ss');
    await waitFor(() =>
      expect(
        [...document.querySelectorAll<HTMLInputElement>('.ant-picker-range input')].map((i) => i.value),
      ).toEqual([format(lapsedAt + 10 * DAY), format(renewedAt)]),
    );
    await waitFor(() => expect(screen.getByTestId('order-total')).toHaveTextContent('RM 30.00'));
    await userEvent.click(screen.getByTestId('recovery-submit'));
    expect(await screen.findByTestId('order-placed')).toHaveTextContent('CC20260601000014');
    expect(sentBody(server, '/api/device/monitoringDeviceRecovery')).toEqual({
      deviceIds: ['1'],
      startTime: lapsedAt + 10 * DAY,
      endTime: renewedAt,
    });
  });

  it('says so in Chinese when the device never lapsed, and asks for one device when several are chosen', async () => {
    const server = serve({
      '/api/order/pageOrders': () => ({ list: [], total: 0, pageNum: 1, pageSize: 10 }),
      '/api/device/serviceLapses': () => ({ ...lapses, lapses: [] }),
    });
    await i18n.changeLanguage('zh-CN');
    renderApp(`${RECOVERY}?ids=1`);
    expect(await screen.findByText('该设备服务未曾过期，没有隐藏的数据。')).toBeInTheDocument();
    cleanup();
    await i18n.changeLanguage('en');
    server.mockClear();
    renderApp(`${RECOVERY}?ids=1,2`);
    expect(await screen.findByTestId('lapse-one-device')).toHaveTextContent(
      'Select a single device to pick from its lapsed service periods.',
    );
    expect(calledPaths(server)).not.toContain('/api/device/serviceLapses');
  });
});

describe('monitor detail: renewal links and parameters', () => {
  it('goes to renewal with the device selected, or says why it cannot', async () => {
    serve();
    renderApp(`${DETAIL}?id=1`);
    await userEvent.click(await screen.findByTestId('device-renew'));
    await waitFor(() => expect(currentLocation.path).toBe(`${PAY}?ids=1`));
  });

  it('without device:topUp the renewal button shows the spec message', async () => {
    serve({ '/api/index/getUserPowers': () => powersWithoutTopUp() });
    renderApp(`${DETAIL}?id=1`);
    await userEvent.click(await screen.findByTestId('device-recover'));
    expect(await screen.findByText('Cannot top up without permission')).toBeInTheDocument();
    expect(currentLocation.path).toBe(`${DETAIL}?id=1`);
  });

  it('reads parameters: reading, then the values the device reported', async () => {
    let state: unknown = null;
    const server = serve({
      '/api/device/parameterState': () => state,
      '/api/device/readParameters': () => {
        state = {
          id: '5',
          requestId: 'r5',
          kind: 'read',
          state: ParameterState.Reading,
          params: null,
          error: '',
          createTime: Date.now(),
          finishTime: null,
        };
        return state;
      },
    });
    renderApp(`${DETAIL}?id=1`);
    expect(await screen.findByTestId('params-none')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('params-read'));
    expect(await screen.findByTestId('params-state')).toHaveTextContent('Reading');
    expect(screen.getByTestId('params-read')).toBeDisabled();
    state = { ...(state as object), state: ParameterState.ReadOk, params: { uploadInterval: 600 } };
    await waitFor(() => expect(screen.getByTestId('params-state')).toHaveTextContent('Read successfully'), {
      timeout: 20_000,
    });
    expect(screen.getByTestId('params-value-uploadInterval')).toHaveTextContent('600');
    expect(sentBody(server, '/api/device/readParameters')).toEqual({ id: '1' });
  });

  it('pushes parameters and shows a failure with its reason', async () => {
    const failed = {
      id: '6',
      requestId: 'r6',
      kind: 'push',
      state: ParameterState.SendFailed,
      params: { uploadInterval: 120 },
      error: 'timeout',
      createTime: Date.now(),
      finishTime: Date.now(),
    };
    const server = serve({ '/api/device/pushParameters': () => failed });
    renderApp(`${DETAIL}?id=1`);
    await userEvent.click(await screen.findByTestId('params-push-open'));
    const upload = await screen.findByTestId('params-input-uploadInterval');
    await userEvent.clear(upload);
    await userEvent.type(upload, '30');
    await userEvent.click(screen.getByTestId('params-push-send'));
    // Verification (60 s) may not exceed the upload interval (30 s).
    expect(
      await screen.findByText('The alarm verification interval must be at most the data upload interval'),
    ).toBeInTheDocument();
    await userEvent.clear(upload);
    await userEvent.type(upload, '120');
    await userEvent.click(screen.getByTestId('params-push-send'));
    expect(await screen.findByTestId('params-state')).toHaveTextContent('Sending failed');
    expect(screen.getByTestId('params-error')).toHaveTextContent('the device did not answer in time');
    expect(sentBody(server, '/api/device/pushParameters')).toEqual({
      id: '1',
      recordInterval: 300,
      uploadInterval: 120,
      alarmVerifyInterval: 60,
      offlineJudgement: 3,
    });
  });

  it('hides the parameter buttons without device:edit', async () => {
    const full = demoPowers();
    serve({
      '/api/index/getUserPowers': () => ({
        ...full,
        menus: buildMenuEntries(new Set(full.authTags), new Set(full.authTags)),
        authTags: full.authTags.filter((t) => t !== 'device:edit'),
      }),
    });
    renderApp(`${DETAIL}?id=1`);
    expect(await screen.findByTestId('parameters-panel')).toBeInTheDocument();
    expect(screen.queryByTestId('params-read')).toBeNull();
    expect(screen.queryByTestId('params-push-open')).toBeNull();
  });
});

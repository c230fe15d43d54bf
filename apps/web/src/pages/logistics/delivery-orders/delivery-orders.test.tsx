import type { DeliveryDetail, DeliveryListItem } from '@coldchain/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../i18n';
import { type Handler, stubServer } from '../../../test/fake-server';
import { renderApp, resetBrowserState } from '../../../test/render-app';

const NOW = Date.UTC(2026, 5, 1, 8, 0, 0);
const MIN = 60_000;
const page = <T,>(list: T[]) => ({ list, total: list.length, pageNum: 1, pageSize: 20 });
const place = (name: string) => ({
  name,
  contact: 'Li Wei',
  phone: '13800138000',
  region: '',
  address: `${name} road`,
  lng: null,
  lat: null,
});

function order(overrides: Partial<DeliveryListItem> = {}): DeliveryListItem {
  return {
    id: 'd1',
    orderNo: 'DO20260601000001',
    state: 1,
    sender: place('Warehouse'),
    receiver: place('Clinic'),
    senderCompany: 'Demo Cold Chain',
    goods: [{ name: 'Vaccine', quantity: '200 vials', batch: 'L42' }],
    tempMin: 2,
    tempMax: 8,
    serials: ['SIM1001'],
    carrier: 'Cold Trucks',
    vehicle: 'A-123',
    plannedDeparture: null,
    plannedArrival: null,
    departTime: null,
    arriveTime: null,
    createTime: NOW,
    ...overrides,
  };
}

function detail(overrides: Partial<DeliveryDetail> = {}): DeliveryDetail {
  return {
    ...order({ state: 3, departTime: NOW, arriveTime: NOW + 60 * MIN }),
    humidityMin: null,
    humidityMax: null,
    remarks: '',
    receiverCompany: 'Demo Cold Chain',
    monitors: [
      {
        deviceId: 'v1',
        serial: 'SIM1001',
        name: 'Truck logger',
        lng: null,
        lat: null,
        lastSeen: null,
        sensors: [
          {
            channel: 1,
            name: 'Temp',
            type: 'temperature',
            unit: '°C',
            points: [
              [NOW, 5],
              [NOW + 30 * MIN, 9.5],
              [NOW + 60 * MIN, 4],
            ],
          },
        ],
      },
    ],
    summary: {
      min: 4,
      max: 9.5,
      mkt: 6.8,
      minutesOutOfRange: 30,
      excursions: 1,
      excursionList: [
        { serial: 'SIM1001', channel: 1, start: NOW + 30 * MIN, end: NOW + 60 * MIN, peak: 9.5 },
      ],
      gaps: [],
      readings: 3,
    },
    receipt: null,
    role: 'receiver',
    ...overrides,
  };
}

function bodies(server: ReturnType<typeof stubServer>, path: string) {
  return server.mock.calls
    .filter(([input]) => String(input) === path)
    .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>);
}

function serve(overrides: Record<string, Handler | Response> = {}, authTags = ['logistics:edit']) {
  // The company's audit signature is on: the receipt asks for the signature password.
  return stubServer({
    authTags,
    user: { signCheck: true },
    overrides: {
      '/api/logistics/pageDeliveries': () =>
        page([order(), order({ id: 'd2', orderNo: 'DO20260601000002', state: 2, departTime: NOW })]),
      '/api/logistics/pageReceiving': () =>
        page([order({ id: 'd3', orderNo: 'DO20260601000003', state: 3 })]),
      '/api/logistics/deliveryDetail': () => detail(),
      '/api/logistics/departDelivery': () => null,
      '/api/logistics/receiveDelivery': () => null,
      '/api/logistics/saveDelivery': () => ({ id: 'd9', orderNo: 'DO20260601000009' }),
      '/api/logistics/pageAddresses': () =>
        page(
          ['Warehouse', 'Clinic'].map((name, i) => ({
            id: `a${i + 1}`,
            ...place(name),
            remarks: '',
            receiverCompany: null,
            createTime: NOW,
            updateTime: NOW,
          })),
        ),
      '/api/device/pageDevices': () => page([{ id: 'v1', serial: 'SIM1001', name: 'Truck logger' }]),
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

describe('delivery orders', () => {
  it(
    'lists orders with their state and departs a created one after confirming',
    async () => {
      const server = serve();
      renderApp('/logistics/deliveryOrder');
      const row = await screen.findByTestId('delivery-row-d1');
      expect(row).toHaveTextContent('Created');
      expect(row).toHaveTextContent('Vaccine × 200 vials');
      expect(screen.getByTestId('delivery-row-d2')).toHaveTextContent('In transit');
      // A created order departs; one in transit arrives instead.
      expect(within(screen.getByTestId('delivery-row-d2')).queryByTestId('delivery-depart-d2')).toBeNull();
      await userEvent.click(screen.getByTestId('delivery-depart-d1'));
      await userEvent.click(await screen.findByTestId('delivery-depart-confirm'));
      await waitFor(() => expect(bodies(server, '/api/logistics/departDelivery')).toEqual([{ id: 'd1' }]));
    },
    SLOW_MS,
  );

  it(
    'creates an order from two addresses, goods, a range and a monitor',
    async () => {
      const server = serve();
      renderApp('/logistics/deliveryOrder');
      await screen.findByTestId('delivery-row-d1');
      await userEvent.click(screen.getByTestId('delivery-add'));
      await userEvent.click(screen.getByTestId('delivery-save'));
      expect(await screen.findByText('Sender address is required')).toBeInTheDocument();
      expect(bodies(server, '/api/logistics/saveDelivery')).toHaveLength(0);

      const choose = async (testId: string, option: string) => {
        await userEvent.click(within(screen.getByTestId(testId)).getByRole('combobox'));
        await userEvent.click((await screen.findAllByTitle(option)).at(-1)!);
      };
      await choose('delivery-sender', 'Warehouse');
      await choose('delivery-receiver', 'Clinic');
      await choose('delivery-devices', 'SIM1001 Truck logger');
      await userEvent.type(screen.getByTestId('delivery-goods-name-0'), 'Vaccine');
      await userEvent.type(screen.getByTestId('delivery-goods-quantity-0'), '200 vials');
      await userEvent.type(screen.getByTestId('delivery-vehicle'), 'A-123');
      await userEvent.click(screen.getByTestId('delivery-save'));
      await waitFor(() =>
        expect(bodies(server, '/api/logistics/saveDelivery')).toEqual([
          expect.objectContaining({
            senderAddressId: 'a1',
            receiverAddressId: 'a2',
            goods: [{ name: 'Vaccine', quantity: '200 vials' }],
            tempMin: 2,
            tempMax: 8,
            deviceIds: ['v1'],
            vehicle: 'A-123',
          }),
        ]),
      );
    },
    SLOW_MS,
  );

  it(
    'shows the trip summary and receives an arrived order with the signature password',
    async () => {
      const server = serve();
      renderApp('/logistics/receivingOrder');
      await screen.findByTestId('receiving-row-d3');
      await userEvent.click(screen.getByTestId('receiving-open-d3'));
      const summary = await screen.findByTestId('delivery-summary');
      expect(summary).toHaveTextContent('9.5 °C');
      expect(summary).toHaveTextContent('Minutes out of range30');
      expect(screen.getByTestId('delivery-detail')).toHaveTextContent('peak 9.5 °C');
      await userEvent.click(screen.getByRole('button', { name: 'Close' }));

      await userEvent.click(screen.getByTestId('receiving-receive-d3'));
      await userEvent.type(await screen.findByTestId('receive-remarks'), 'Boxes intact');
      await userEvent.type(screen.getByTestId('receive-password'), 'abc123');
      await userEvent.click(screen.getByTestId('receive-submit'));
      await waitFor(() =>
        expect(bodies(server, '/api/logistics/receiveDelivery')).toEqual([
          { id: 'd3', accepted: true, remarks: 'Boxes intact', signPassword: 'abc123' },
        ]),
      );
    },
    SLOW_MS,
  );

  it(
    'opens the public receipt page of a link and names the shipment in Chinese',
    async () => {
      await i18n.changeLanguage('zh-CN');
      localStorage.removeItem('accessToken');
      const server = serve({ '/api/logistics/linkReceipt': () => detail({ role: 'link' }) });
      renderApp('/receipt/abcdefghijklmnopqrstuvwxyz012345');
      expect(await screen.findByText('运单签收')).toBeInTheDocument();
      expect(await screen.findByTestId('delivery-summary')).toHaveTextContent('超限分钟数');
      expect(screen.getByTestId('receipt-name')).toBeInTheDocument();
      expect(bodies(server, '/api/logistics/linkReceipt')).toEqual([
        { token: 'abcdefghijklmnopqrstuvwxyz012345' },
      ]);
    },
    SLOW_MS,
  );
});

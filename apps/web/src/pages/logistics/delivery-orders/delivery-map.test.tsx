import type { DeliveryDetail, DeliveryMonitorView } from '@coldchain/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../i18n';
import { stubServer } from '../../../test/fake-server';
import { renderApp, resetBrowserState } from '../../../test/render-app';

const NOW = Date.UTC(2026, 5, 1, 8, 0, 0);
const MIN = 60_000;
const SLOW_MS = 40_000;
const PHOTO = '/files/0123456789abcdef0123456789abcdef.jpg';
const place = (name: string, lng: number, lat: number) => ({
  name,
  contact: 'Li Wei',
  phone: '13800138000',
  region: '',
  address: `${name} road`,
  lng,
  lat,
});

function monitor(overrides: Partial<DeliveryMonitorView> = {}): DeliveryMonitorView {
  return {
    deviceId: 'v1',
    serial: 'TRK0001',
    name: 'Truck logger',
    lng: null,
    lat: null,
    lastSeen: null,
    sensors: [{ channel: 1, name: 'Temp', type: 'temperature', unit: '°C', points: [[NOW, 5]] }],
    route: [],
    ...overrides,
  };
}

/** An order from a warehouse to a clinic; in transit unless `overrides` say otherwise. */
function detail(overrides: Partial<DeliveryDetail> = {}): DeliveryDetail {
  return {
    id: 'd1',
    orderNo: 'DO20260601000001',
    state: 2,
    sender: place('Warehouse', 113.93, 22.53),
    receiver: place('Clinic', 114.12, 22.6),
    senderCompany: 'Demo Cold Chain',
    goods: [{ name: 'Vaccine', quantity: '200 vials' }],
    tempMin: 2,
    tempMax: 8,
    serials: ['TRK0001'],
    carrier: '',
    vehicle: '',
    plannedDeparture: null,
    plannedArrival: null,
    departTime: NOW,
    arriveTime: null,
    createTime: NOW,
    humidityMin: null,
    humidityMax: null,
    remarks: '',
    receiverCompany: 'Demo Cold Chain',
    monitors: [monitor()],
    summary: {
      min: 5,
      max: 5,
      mkt: 5,
      minutesOutOfRange: 0,
      excursions: 0,
      excursionList: [],
      gaps: [],
      readings: 1,
    },
    receipt: null,
    role: 'sender',
    ...overrides,
  };
}

const TRACK = [
  { ts: NOW, lat: 22.53, lng: 113.93 },
  { ts: NOW + 20 * MIN, lat: 22.515, lng: 113.97 },
  { ts: NOW + 40 * MIN, lat: 22.545, lng: 114.02 },
];

async function openSenderDetail(order: DeliveryDetail) {
  stubServer({
    authTags: ['logistics:edit'],
    overrides: {
      '/api/logistics/pageDeliveries': () => ({ list: [order], total: 1, pageNum: 1, pageSize: 20 }),
      '/api/logistics/deliveryDetail': () => order,
    },
  });
  renderApp('/logistics/deliveryOrder');
  await userEvent.click(await screen.findByTestId('delivery-open-d1'));
  return screen.findByTestId('delivery-route');
}

beforeEach(async () => {
  resetBrowserState();
  localStorage.setItem('accessToken', 't');
  await i18n.changeLanguage('en');
});
afterEach(() => vi.unstubAllGlobals());

describe('delivery map and receipt photo', () => {
  it(
    'draws the recorded track of a travelling monitor and marks where it is now',
    async () => {
      const map = await openSenderDetail(
        detail({ monitors: [monitor({ route: TRACK, lng: 114.02, lat: 22.545, lastSeen: NOW + 40 * MIN })] }),
      );
      const track = within(map).getByTestId('delivery-track-TRK0001');
      expect(track.getAttribute('points')?.split(' ')).toHaveLength(3);
      expect(within(map).getByTestId('delivery-position-TRK0001')).toHaveTextContent('TRK0001');
      expect(within(map).queryByTestId('delivery-straight-route')).toBeNull();
      expect(screen.getByText(/Solid lines: the tracks the monitors recorded/)).toBeInTheDocument();
    },
    SLOW_MS,
  );

  it(
    'falls back to the straight line sender to receiver while no track is recorded',
    async () => {
      const map = await openSenderDetail(detail());
      expect(within(map).getByTestId('delivery-straight-route')).toBeInTheDocument();
      expect(within(map).queryByTestId('delivery-track-TRK0001')).toBeNull();
      expect(within(map).queryByTestId('delivery-position-TRK0001')).toBeNull();
    },
    SLOW_MS,
  );

  it(
    'shows the trip track and the receipt photo of a received order to the receiving company',
    async () => {
      const received = detail({
        state: 4,
        arriveTime: NOW + 60 * MIN,
        role: 'receiver',
        monitors: [monitor({ route: TRACK })],
        receipt: {
          accepted: true,
          time: NOW + 70 * MIN,
          remarks: 'Boxes intact',
          photo: PHOTO,
          signedBy: 'Demo Admin',
          method: 'password',
        },
      });
      stubServer({
        authTags: ['logistics:edit'],
        overrides: {
          '/api/logistics/pageReceiving': () => ({ list: [received], total: 1, pageNum: 1, pageSize: 20 }),
          '/api/logistics/deliveryDetail': () => received,
        },
      });
      renderApp('/logistics/receivingOrder');
      await userEvent.click(await screen.findByTestId('receiving-open-d1'));
      const receipt = await screen.findByTestId('delivery-receipt');
      expect(within(receipt).getByAltText('Photo of the goods')).toHaveAttribute('src', PHOTO);
      expect(
        within(screen.getByTestId('delivery-route')).getByTestId('delivery-track-TRK0001'),
      ).toBeInTheDocument();
    },
    SLOW_MS,
  );

  it(
    'shows the receipt photo on the public receipt page once received, in Chinese',
    async () => {
      await i18n.changeLanguage('zh-CN');
      localStorage.removeItem('accessToken');
      stubServer({
        overrides: {
          '/api/logistics/linkReceipt': () =>
            detail({
              state: 5,
              arriveTime: NOW + 60 * MIN,
              role: 'link',
              receipt: {
                accepted: false,
                time: NOW + 70 * MIN,
                remarks: 'Box warm',
                photo: PHOTO,
                signedBy: 'Dr Wang',
                method: 'password',
              },
            }),
        },
      });
      renderApp('/receipt/abcdefghijklmnopqrstuvwxyz012345');
      const receipt = await screen.findByTestId('delivery-receipt');
      expect(within(receipt).getByAltText('货物照片')).toHaveAttribute('src', PHOTO);
    },
    SLOW_MS,
  );

  it(
    'lets a receiver outside the platform attach a photo on the receipt page, sent with the link token',
    async () => {
      localStorage.removeItem('accessToken');
      const uploads: Array<Record<string, unknown>> = [];
      stubServer({
        overrides: {
          '/api/logistics/linkReceipt': () => detail({ state: 3, arriveTime: NOW + 60 * MIN, role: 'link' }),
          '/api/logistics/linkPhoto': (body) => {
            uploads.push(body);
            return { url: PHOTO, size: 8, type: 'jpg' };
          },
        },
      });
      renderApp('/receipt/abcdefghijklmnopqrstuvwxyz012345');
      const input = await screen.findByTestId('receipt-photo');
      const file = new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])], 'goods.jpg', { type: 'image/jpeg' });
      await userEvent.upload(input, file);
      expect(await screen.findByTestId('receipt-photo-preview')).toBeInTheDocument();
      expect(uploads).toHaveLength(1);
      expect(uploads[0]!.token).toBe('abcdefghijklmnopqrstuvwxyz012345');
      expect((uploads[0]!.file as File).name).toBe('goods.jpg');
    },
    SLOW_MS,
  );
});

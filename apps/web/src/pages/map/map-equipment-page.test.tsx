import type { MapEquipmentView } from '@coldchain/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { demoPowers, stubServer } from '../../test/fake-server';
import { renderApp, resetBrowserState } from '../../test/render-app';
import { device } from '../devices/test-fixtures';
import { EQUIPMENT_COLOR, EQUIPMENT_PAUSED_COLOR } from './EquipmentBadges';

const PAGE = '/monitoring/mapMode';
const fleet = [
  device({ id: '1', name: 'KL fridge', serial: 'DEMO0001', lat: 3.139, lng: 101.6869 }),
  device({ id: '2', name: 'Penang freezer', serial: 'DEMO0002', lat: 5.4141, lng: 100.3288 }),
  device({ id: '3', name: 'Johor van', serial: 'DEMO0003', lat: null, lng: null }),
];

function equipmentItem(overrides: Partial<MapEquipmentView>): MapEquipmentView {
  return {
    id: '70',
    name: 'Vaccine fridge',
    serial: '300001',
    useState: 1,
    alarmsPaused: null,
    pausedUntil: null,
    typeName: 'Fridge',
    region: 'Kuala Lumpur',
    address: 'Jalan Ampang 1',
    deviceIds: ['1'],
    ...overrides,
  };
}

const equipment = [
  equipmentItem({}),
  equipmentItem({
    id: '71',
    name: 'Cold room',
    serial: '400001',
    useState: 2,
    alarmsPaused: 'underService',
    deviceIds: ['3', '1'],
  }),
  equipmentItem({ id: '72', name: 'Van box', serial: '500001', deviceIds: ['3'] }),
];

function serve(authTags?: string[]) {
  return stubServer({
    overrides: {
      '/api/device/pageDevices': () => ({ list: fleet, total: fleet.length, pageNum: 1, pageSize: 200 }),
      '/api/device/mapEquipment': () => ({ list: equipment, total: equipment.length }),
      ...(authTags ? { '/api/index/getUserPowers': () => ({ ...demoPowers(), authTags }) } : {}),
    },
  });
}

const calledPaths = (server: ReturnType<typeof serve>) => server.mock.calls.map(([input]) => String(input));

beforeEach(async () => {
  resetBrowserState();
  localStorage.setItem('accessToken', 't');
  await i18n.changeLanguage('en');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('map mode: equipment beside the monitors', () => {
  it('draws equipment as squares beside the monitor measuring it, with a legend and a list', async () => {
    const server = serve();
    renderApp(PAGE);
    // The first render of a file warms the whole console up: slow on a busy machine.
    const fridge = await screen.findByTestId('map-equipment-marker-70');
    expect(calledPaths(server)).toContain('/api/device/mapEquipment');
    expect(fridge.querySelector('rect')?.getAttribute('fill')).toBe(EQUIPMENT_COLOR);
    // The cold room's first monitor has no GPS: it is drawn beside the next one, KL fridge.
    const coldRoom = screen.getByTestId('map-equipment-marker-71');
    expect(coldRoom).toHaveAttribute('data-paused', 'true');
    expect(coldRoom.querySelector('rect')?.getAttribute('fill')).toBe(EQUIPMENT_PAUSED_COLOR);
    expect(coldRoom).toHaveAccessibleName('Equipment Cold room, alarms paused');
    // Beside KL fridge: the same anchor as its marker, offset to the right.
    const anchor = (el: HTMLElement) => el.parentElement!.getAttribute('transform');
    expect(anchor(fridge)).toBe(screen.getByTestId('map-marker-1').getAttribute('transform'));
    expect(screen.queryByTestId('map-equipment-marker-72')).toBeNull();

    expect(screen.getByTestId('map-legend-equipment')).toHaveTextContent('Equipment (2)');
    expect(screen.getByTestId('map-legend-equipment-paused')).toHaveTextContent(
      'Equipment with alarms paused (1)',
    );
    const list = screen.getByTestId('map-equipment-list');
    expect(within(list).getByRole('link', { name: 'Vaccine fridge' })).toHaveAttribute(
      'href',
      '/deviceManagement/equipment/equipmentDetail?id=70',
    );
    expect(screen.getByTestId('map-equipment-beside-71')).toHaveTextContent('Beside KL fridge');
    expect(screen.getByTestId('map-equipment-unplaced-72')).toHaveTextContent(
      'Not on the map: no monitor with a GPS position measures it',
    );
  });

  it('opens the card of a picked square, saying why its alarms are paused', async () => {
    serve();
    renderApp(PAGE);
    await userEvent.click(await screen.findByTestId('map-equipment-marker-71'));
    const card = screen.getByTestId('map-selected-equipment');
    expect(card).toHaveTextContent('Cold room');
    expect(within(card).getByTestId('map-selected-equipment-paused')).toHaveTextContent(
      'Alarms paused: Cold room (400001) is under service',
    );
    expect(within(card).getByTestId('map-selected-equipment-monitors')).toHaveTextContent(
      'Johor van, KL fridge',
    );
    expect(within(card).getByTestId('map-selected-equipment-open')).toHaveAttribute(
      'href',
      '/deviceManagement/equipment/equipmentDetail?id=71',
    );
  });

  it('speaks Chinese', async () => {
    serve();
    await i18n.changeLanguage('zh-CN');
    renderApp(PAGE);
    await screen.findByTestId('map-equipment-marker-70');
    expect(screen.getByTestId('map-legend-equipment')).toHaveTextContent('冷链设备（2）');
    expect(screen.getByTestId('map-equipment-beside-70')).toHaveTextContent('位于 KL fridge 旁');
  });

  it('neither asks for nor shows equipment without equipment:view', async () => {
    const tags = demoPowers().authTags.filter((tag) => !tag.startsWith('equipment:'));
    const server = serve(tags);
    renderApp(PAGE);
    await screen.findByTestId('map-marker-1');
    await waitFor(() => expect(calledPaths(server)).toContain('/api/index/getUserPowers'));
    expect(calledPaths(server)).not.toContain('/api/device/mapEquipment');
    expect(screen.queryByTestId('map-legend-equipment')).toBeNull();
    expect(screen.queryByTestId('map-equipment-list')).toBeNull();
  });
});

import type { MapEquipmentView } from '@coldchain/contract';
import { describe, expect, it } from 'vitest';
import { device } from '../devices/test-fixtures';
import { placeEquipment } from './map-equipment';

function item(id: string, deviceIds: string[]): MapEquipmentView {
  return {
    id,
    name: `Equipment ${id}`,
    serial: `30000${id}`,
    useState: 1,
    alarmsPaused: null,
    pausedUntil: null,
    typeName: 'Fridge',
    region: '',
    address: '',
    deviceIds,
  };
}

describe('equipment placement on the map', () => {
  const located = device({ id: '1', lat: 3.1, lng: 101.7 });
  const alsoLocated = device({ id: '2', lat: 5.4, lng: 100.3 });
  const noGps = device({ id: '3', lat: null, lng: null });

  it('puts equipment beside its first located monitor, once, and lists the rest as not placed', () => {
    const placed = placeEquipment(
      [item('a', ['3', '2', '1']), item('b', ['1']), item('c', ['3']), item('d', []), item('e', ['99'])],
      [located, alsoLocated, noGps],
    );
    expect(placed.byDevice.get('2')?.map((e) => e.id)).toEqual(['a']);
    expect(placed.byDevice.get('1')?.map((e) => e.id)).toEqual(['b']);
    expect(placed.byDevice.has('3')).toBe(false);
    expect(placed.besideOf.get('a')?.id).toBe('2');
    // No GPS, no monitor, or a monitor the caller cannot see: listed only.
    expect(placed.unplaced.map((e) => e.id)).toEqual(['c', 'd', 'e']);
  });
});

import type { InventoryItem } from '../inventory/inventory.service';
import type { InventoryChannel } from '../inventory/inventory.table';
import type { DemoGroup } from './demo-organisation';

/** What happens to a monitor in the demo's story (demo-story.ts); nothing when absent. */
export type DemoIncident = 'unplugged' | 'compressorFault' | 'powerCut';

export interface DemoUnit {
  serial: string;
  name: string;
  /** Where it stands: a group of one of the demo departments (demo-organisation.ts). */
  group: DemoGroup;
  kind: 'fridge' | 'freezer';
  channels: InventoryChannel[];
  incident?: DemoIncident;
}

const t = (ch: number, min = -40, max = 85): InventoryChannel => ({
  ch,
  type: 'temperature',
  unit: '°C',
  min,
  max,
});
const h = (ch: number): InventoryChannel => ({ ch, type: 'humidity', unit: '%RH', min: 0, max: 100 });

/**
 * Twelve monitors with one to four channels: vaccine fridges, freezers, a cold room, a truck,
 * spread over the groups of the two demo departments (Pharmacy and Cold Store). Three of them
 * carry the story: one unplugged, one whose compressor is failing, one that rode out a power cut.
 */
export const DEMO_UNITS: DemoUnit[] = [
  {
    serial: 'DEMO0001',
    name: 'Vaccine fridge 1',
    group: 'Vaccine fridges',
    kind: 'fridge',
    channels: [t(1), h(2)],
  },
  {
    serial: 'DEMO0002',
    name: 'Vaccine fridge 2',
    group: 'Vaccine fridges',
    kind: 'fridge',
    channels: [t(1), h(2)],
  },
  {
    serial: 'DEMO0003',
    name: 'Pharmacy fridge',
    group: 'Vaccine fridges',
    kind: 'fridge',
    channels: [t(1)],
    incident: 'powerCut',
  },
  {
    serial: 'DEMO0004',
    name: 'Blood bank fridge',
    group: 'Blood and samples',
    kind: 'fridge',
    channels: [t(1), t(2)],
  },
  {
    serial: 'DEMO0005',
    name: 'Plasma freezer',
    group: 'Blood and samples',
    kind: 'freezer',
    channels: [t(1, -200, 200)],
  },
  {
    serial: 'DEMO0006',
    name: 'Sample freezer',
    group: 'Blood and samples',
    kind: 'freezer',
    channels: [t(1, -200, 200), t(2, -200, 200)],
  },
  {
    serial: 'DEMO0007',
    name: 'Cold room',
    group: 'Cold rooms',
    kind: 'fridge',
    channels: [t(1), h(2), t(3), t(4)],
  },
  {
    serial: 'DEMO0008',
    name: 'Dairy display',
    group: 'Retail and transport',
    kind: 'fridge',
    channels: [t(1), h(2)],
  },
  {
    serial: 'DEMO0009',
    name: 'Produce cold room',
    group: 'Cold rooms',
    kind: 'fridge',
    channels: [t(1), h(2), t(3)],
  },
  {
    serial: 'DEMO0010',
    name: 'Delivery truck',
    group: 'Retail and transport',
    kind: 'fridge',
    channels: [t(1), h(2)],
  },
  {
    serial: 'DEMO0011',
    name: 'Lab fridge (unplugged)',
    group: 'Wards and labs',
    kind: 'fridge',
    channels: [t(1)],
    incident: 'unplugged',
  },
  {
    serial: 'DEMO0012',
    name: 'Ward fridge (warm)',
    group: 'Wards and labs',
    kind: 'fridge',
    channels: [t(1), h(2)],
    incident: 'compressorFault',
  },
];

/** The demo's inventory rows: a model and version tier that match each monitor's channels. */
export function demoUnitInventory(unit: DemoUnit): InventoryItem {
  return {
    serial: unit.serial,
    model: unit.channels.length === 1 ? 'CC-T1' : `CC-T${unit.channels.length}`,
    version: unit.channels.length > 2 ? 'elite' : 'standard',
    channels: unit.channels,
  };
}

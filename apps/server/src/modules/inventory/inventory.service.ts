import type { Queryable } from '../../db/client';
import { deviceInventory, type InventoryChannel } from './inventory.table';

export interface InventoryItem {
  serial: string;
  model: string;
  version: 'basic' | 'standard' | 'elite' | 'premium';
  channels: InventoryChannel[];
}

/** Adds serials to the supplier's stock; serials already there are left as they are. Returns how many were new. */
export async function addInventory(db: Queryable, items: InventoryItem[]): Promise<number> {
  if (items.length === 0) return 0;
  const inserted = await db
    .insert(deviceInventory)
    .values(items.map((i) => ({ ...i, channelCount: i.channels.length })))
    .onConflictDoNothing()
    .returning({ serial: deviceInventory.serial });
  return inserted.length;
}

import { jsonb, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';

export interface InventoryChannel {
  ch: number;
  type: 'temperature' | 'humidity' | string;
  unit: string;
  min: number;
  max: number;
}

/**
 * The supplier's stock of loggers: a serial can be added to a company only if it is here and not
 * yet bound (API.md `addDevice`).
 */
export const deviceInventory = pgTable('device_inventory', {
  serial: text('serial').primaryKey(),
  model: text('model').notNull(),
  /** basic | standard | elite | premium */
  version: text('version').notNull(),
  channelCount: smallint('channel_count').notNull(),
  channels: jsonb('channels').$type<InventoryChannel[]>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

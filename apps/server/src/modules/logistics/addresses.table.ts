import { bigint, bigserial, doublePrecision, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { companies } from '../companies/companies.table';
import { users } from '../users/users.table';

/**
 * A company's shipping addresses (`addressManagement`): where goods leave from and go to. They
 * belong to the whole company, not to a department (docs/decisions.md, "Logistics addresses"):
 * the warehouse a dispatcher ships from is shared by everyone who ships.
 */
export const logisticsAddresses = pgTable(
  'logistics_addresses',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: bigint('company_id', { mode: 'number' })
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    contact: text('contact').notNull(),
    phone: text('phone').notNull(),
    region: text('region').notNull().default(''),
    address: text('address').notNull(),
    /** WGS-84 degrees; both or neither (the contract checks the pair). */
    lng: doublePrecision('lng'),
    lat: doublePrecision('lat'),
    remarks: text('remarks').notNull().default(''),
    /**
     * The company on the platform that receives at this address, linked by its company code; its
     * receiving orders will list the shipments sent here. Unlinked when that company is deleted.
     */
    receiverCompanyId: bigint('receiver_company_id', { mode: 'number' }).references(() => companies.id, {
      onDelete: 'set null',
    }),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('logistics_addresses_company_idx').on(t.companyId, t.name),
    index('logistics_addresses_receiver_idx').on(t.receiverCompanyId),
  ],
);

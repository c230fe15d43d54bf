/** Every table, gathered for Drizzle and drizzle-kit. Each table is defined in its domain folder. */
export * from '../modules/alarms/alarms.table';
export * from '../modules/audit/audit.table';
export * from '../modules/companies/companies.table';
export * from '../modules/delivery/delivery.table';
export * from '../modules/devices/devices.table';
export * from '../modules/feedback/feedback.table';
export * from '../modules/inventory/inventory.table';
export * from '../modules/notices/notices.table';
export * from '../modules/notify/outbox.table';
export * from '../modules/org/org.table';
export * from '../modules/registration/codes.table';
export * from '../modules/system/tickets.table';
export * from '../modules/telemetry/readings.table';
export * from '../modules/users/users.table';

import type { Queryable } from '../../db/client';

/**
 * How many delivery orders use an address as sender or receiver. Delivery orders do not exist
 * yet (issue 18 item 2): their module adds its count here, so that deleting an address a
 * shipment names is refused (a delivery note must still say where the goods went).
 */
export type AddressUsageCounter = (db: Queryable, companyId: number, addressId: number) => Promise<number>;

const counters: AddressUsageCounter[] = [];

/** Called once by a module whose rows point at addresses (the future deliveries table). */
export function countAddressUsageWith(counter: AddressUsageCounter): void {
  counters.push(counter);
}

export async function addressUsageCount(
  db: Queryable,
  companyId: number,
  addressId: number,
): Promise<number> {
  let total = 0;
  for (const counter of counters) total += await counter(db, companyId, addressId);
  return total;
}

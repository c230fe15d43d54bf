import { isIP } from 'node:net';

/**
 * Which peers' `X-Forwarded-For` / `X-Forwarded-Proto` the server believes (`TRUST_PROXY`).
 * Everything keyed on the client address depends on it: the login and code rate limits, the
 * abnormal-login check and the addresses in the login and operation logs. Believing the header
 * from anyone lets a client pick its own address, so it is off unless configured.
 *
 * - empty: nobody; the address is the TCP peer's.
 * - a whole number n: the n nearest hops (Express semantics). Only safe when the server cannot
 *   be reached except through those proxies.
 * - a comma-separated list of addresses, CIDRs, or proxy-addr's names `loopback`, `linklocal`,
 *   `uniquelocal`: only a peer in the list is believed, hop by hop.
 */
export type TrustProxy = false | string[] | ((address: string, hop: number) => boolean);

const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrCidr(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/** Parses `TRUST_PROXY`; a string is the reason it was refused (the config names the variable). */
export function parseTrustProxy(text: string): TrustProxy | string {
  const value = text.trim();
  if (value === '') return false;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    // Fastify 5 treats a bare number as "trust nobody" (it cannot check the peer), so hop
    // counting is done here, as Express and proxy-addr define it.
    return hops === 0 ? false : (_address, hop) => hop < hops;
  }
  const entries = value.split(',').map((e) => e.trim());
  const bad = entries.filter((e) => !isAddressOrCidr(e));
  if (bad.length > 0) {
    return `not an address, CIDR, hop count or loopback/linklocal/uniquelocal: ${bad.join(', ')}`;
  }
  return entries;
}

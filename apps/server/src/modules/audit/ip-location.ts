import { isIP } from 'node:net';
import type { WireLanguage } from '@coldchain/contract';

/**
 * Where a login came from, as the login log shows it. The platform runs without internet access,
 * so the built-in lookup only knows private and loopback addresses; a deployment with a GeoIP
 * database replaces it once at start-up with `setIpLocator` (one function, no other change).
 * The stored value is a language-neutral code (`local`, `unknown`) or a place name; the screens
 * and exports translate the codes with `locationLabel`.
 */
export type IpLocator = (ip: string) => string;

export const LOCAL_NETWORK = 'local';
export const UNKNOWN_LOCATION = 'unknown';

const PRIVATE_V4: [number, number, number][] = [
  // [first octet, second octet min, second octet max]
  [10, 0, 255],
  [127, 0, 255],
  [172, 16, 31],
  [192, 168, 168],
  [169, 254, 254],
  [100, 64, 127], // carrier-grade NAT
];

/** Loopback, private, link-local and unique-local addresses (IPv4, IPv6 and IPv4-mapped IPv6). */
export function isLocalAddress(ip: string): boolean {
  const address = ip
    .trim()
    .toLowerCase()
    .replace(/^::ffff:/, '');
  if (isIP(address) === 4) {
    const [a, b] = address.split('.').map(Number) as [number, number];
    return PRIVATE_V4.some(([first, min, max]) => a === first && b >= min && b <= max);
  }
  if (isIP(address) === 6) {
    return address === '::1' || /^f[cd]/.test(address) || /^fe[89ab]/.test(address);
  }
  return false;
}

export const builtInLocator: IpLocator = (ip) => (isLocalAddress(ip) ? LOCAL_NETWORK : UNKNOWN_LOCATION);

let locator: IpLocator = builtInLocator;

/** Replaces the lookup (a GeoIP database, a company's own site list). */
export function setIpLocator(next: IpLocator): void {
  locator = next;
}

/** Never throws: a broken lookup must not stop a login from being recorded. */
export function locateIp(ip: string): string {
  if (!ip) return UNKNOWN_LOCATION;
  try {
    return locator(ip) || UNKNOWN_LOCATION;
  } catch {
    return UNKNOWN_LOCATION;
  }
}

const LABELS: Record<string, Record<WireLanguage, string>> = {
  [LOCAL_NETWORK]: { en: 'Local network', cn: '局域网' },
  [UNKNOWN_LOCATION]: { en: 'Unknown', cn: '未知' },
};

/** The stored location as a person reads it; place names from a replaced locator pass through. */
export function locationLabel(location: string, language: WireLanguage): string {
  if (!location) return LABELS[UNKNOWN_LOCATION]![language];
  return LABELS[location]?.[language] ?? location;
}

import { type VersionTier, VersionTiers } from '@coldchain/contract';

/** The price of a device's tier; a version that is not a tier is priced as basic, as the server does. */
export function tierPrice(prices: Record<VersionTier, number>, version: string): number {
  const tier = (VersionTiers as readonly string[]).includes(version) ? (version as VersionTier) : 'basic';
  return prices[tier];
}

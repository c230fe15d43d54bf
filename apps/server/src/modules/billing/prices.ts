import { type VersionTier, VersionTiers } from '@coldchain/contract';

/** Prices per device per month by version tier, in sen (RM cents). */
export type TierPrices = Record<VersionTier, number>;

export interface PriceConfig {
  renewal: TierPrices;
  recovery: TierPrices;
}

/** Defaults of PRICE_RENEWAL_RM and PRICE_RECOVERY_RM (README configuration table). */
export const DEFAULT_RENEWAL_PRICES = 'basic:10,standard:15,elite:20,premium:30';
export const DEFAULT_RECOVERY_PRICES = 'basic:20,standard:30,elite:40,premium:50';

/**
 * Parses `basic:10,standard:15,elite:20,premium:30` (RM per device per month, up to 2 decimals).
 * Every tier must be priced; the answer is a reason when the text is wrong.
 */
export function parseTierPrices(text: string): TierPrices | string {
  const prices: Partial<TierPrices> = {};
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const match = /^([a-z]+):(\d+(?:\.\d{1,2})?)$/.exec(part);
    if (!match) return `"${part}" is not tier:amount (e.g. basic:10)`;
    const tier = match[1] as VersionTier;
    if (!VersionTiers.includes(tier)) return `unknown tier "${match[1]}" (use ${VersionTiers.join(', ')})`;
    prices[tier] = Math.round(Number(match[2]) * 100);
  }
  const missing = VersionTiers.filter((t) => prices[t] === undefined);
  if (missing.length > 0) return `no price for ${missing.join(', ')}`;
  return prices as TierPrices;
}

/**
 * A device's tier. Devices whose inventory version is not one of the four tiers (older stock) are
 * priced as basic, the lowest tier, rather than refused.
 */
export function tierOf(version: string): VersionTier {
  return (VersionTiers as readonly string[]).includes(version) ? (version as VersionTier) : 'basic';
}

export const centsToRm = (cents: number) => Math.round(cents) / 100;

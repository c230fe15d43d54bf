import { VersionTiers } from '@coldchain/contract';
import type { InventoryItem } from './inventory.service';

export interface CsvProblem {
  line: number;
  reason: string;
}

const CHANNEL = /^(\w+):([^:]*):(-?\d+(?:\.\d+)?):(-?\d+(?:\.\d+)?)$/;

/**
 * Reads the supplier's stock list: a header `serial,model,version,channels` and one logger per
 * line, channels as `type:unit:min:max` joined by `|`, for example
 * `SIM2001,CC-TH2,standard,temperature:°C:-40:85|humidity:%RH:0:100`. Every bad line is reported
 * with its number and reason; good lines are returned.
 */
export function parseInventoryCsv(text: string): { items: InventoryItem[]; problems: CsvProblem[] } {
  const items: InventoryItem[] = [];
  const problems: CsvProblem[] = [];
  const seen = new Set<string>();
  const lines = text.split(/\r?\n/);
  const header = lines[0]?.trim().toLowerCase().replace(/\s/g, '');
  if (header !== 'serial,model,version,channels') {
    return {
      items,
      problems: [{ line: 1, reason: 'the first line must be: serial,model,version,channels' }],
    };
  }
  for (const [index, raw] of lines.slice(1).entries()) {
    if (raw.trim() === '') continue;
    const result = parseLine(raw, seen);
    if (typeof result === 'string') problems.push({ line: index + 2, reason: result });
    else {
      seen.add(result.serial);
      items.push(result);
    }
  }
  return { items, problems };
}

/** One stock line, or the reason it cannot be imported. */
function parseLine(raw: string, seen: ReadonlySet<string>): InventoryItem | string {
  const [serial = '', model, version = '', channels, ...extra] = raw.split(',').map((c) => c.trim());
  if (extra.length > 0 || channels === undefined) return 'expected 4 columns';
  if (!/^[A-Z0-9-]{3,40}$/i.test(serial)) return `serial "${serial}" must be 3-40 letters, digits or dashes`;
  const upper = serial.toUpperCase();
  if (seen.has(upper)) return `serial ${upper} appears twice`;
  if (!model) return 'model is empty';
  if (!(VersionTiers as readonly string[]).includes(version))
    return `version must be one of ${VersionTiers.join(', ')}`;
  const parsed = channels.split('|').map((c, i) => {
    const match = CHANNEL.exec(c.trim());
    if (!match) return null;
    const min = Number(match[3]);
    const max = Number(match[4]);
    return min < max ? { ch: i + 1, type: match[1]!, unit: match[2]!, min, max } : null;
  });
  if (parsed.length === 0 || parsed.length > 64 || parsed.some((c) => c === null)) {
    return 'channels must be type:unit:min:max (min below max) joined by |, 1 to 64 of them';
  }
  return {
    serial: upper,
    model,
    version: version as InventoryItem['version'],
    channels: parsed as InventoryItem['channels'],
  };
}

import { VersionTiers, type WireLanguage } from '@coldchain/contract';
import type { InventoryItem } from './inventory.service';

export interface CsvProblem {
  line: number;
  reason: string;
}

/** Why a line cannot be imported, in the reader's language (the operator console and the admin command). */
const REASONS = {
  header: {
    en: () => 'the first line must be: serial,model,version,channels',
    cn: () => '第一行必须是：serial,model,version,channels',
  },
  columns: { en: () => 'expected 4 columns', cn: () => '应为 4 列' },
  serial: {
    en: (v: string) => `serial "${v}" must be 3-40 letters, digits or dashes`,
    cn: (v: string) => `序列号“${v}”须为 3-40 个字母、数字或短横线`,
  },
  twice: { en: (v: string) => `serial ${v} appears twice`, cn: (v: string) => `序列号 ${v} 出现了两次` },
  model: { en: () => 'model is empty', cn: () => '型号为空' },
  version: {
    en: (v: string) => `version must be one of ${v}`,
    cn: (v: string) => `版本须为以下之一：${v}`,
  },
  channels: {
    en: () => 'channels must be type:unit:min:max (min below max) joined by |, 1 to 64 of them',
    cn: () => '通道须为 type:unit:min:max（min 小于 max），以 | 连接，1 到 64 个',
  },
} satisfies Record<string, Record<WireLanguage, (value: string) => string>>;

type Reason = (key: keyof typeof REASONS, value?: string) => string;

const CHANNEL = /^(\w+):([^:]*):(-?\d+(?:\.\d+)?):(-?\d+(?:\.\d+)?)$/;

/**
 * Reads the supplier's stock list: a header `serial,model,version,channels` and one logger per
 * line, channels as `type:unit:min:max` joined by `|`, for example
 * `SIM2001,CC-TH2,standard,temperature:°C:-40:85|humidity:%RH:0:100`. Every bad line is reported
 * with its number and reason; good lines are returned.
 */
export function parseInventoryCsv(
  text: string,
  language: WireLanguage = 'en',
): { items: InventoryItem[]; problems: CsvProblem[] } {
  const reason: Reason = (key, value = '') => REASONS[key][language](value);
  const items: InventoryItem[] = [];
  const problems: CsvProblem[] = [];
  const seen = new Set<string>();
  const lines = text.split(/\r?\n/);
  const header = lines[0]?.trim().toLowerCase().replace(/\s/g, '');
  if (header !== 'serial,model,version,channels') {
    return {
      items,
      problems: [{ line: 1, reason: reason('header') }],
    };
  }
  for (const [index, raw] of lines.slice(1).entries()) {
    if (raw.trim() === '') continue;
    const result = parseLine(raw, seen, reason);
    if (typeof result === 'string') problems.push({ line: index + 2, reason: result });
    else {
      seen.add(result.serial);
      items.push(result);
    }
  }
  return { items, problems };
}

/** One stock line, or the reason it cannot be imported. */
function parseLine(raw: string, seen: ReadonlySet<string>, reason: Reason): InventoryItem | string {
  const [serial = '', model, version = '', channels, ...extra] = raw.split(',').map((c) => c.trim());
  if (extra.length > 0 || channels === undefined) return reason('columns');
  if (!/^[A-Z0-9-]{3,40}$/i.test(serial)) return reason('serial', serial);
  const upper = serial.toUpperCase();
  if (seen.has(upper)) return reason('twice', upper);
  if (!model) return reason('model');
  if (!(VersionTiers as readonly string[]).includes(version))
    return reason('version', VersionTiers.join(', '));
  const parsed = channels.split('|').map((c, i) => {
    const match = CHANNEL.exec(c.trim());
    if (!match) return null;
    const min = Number(match[3]);
    const max = Number(match[4]);
    return min < max ? { ch: i + 1, type: match[1]!, unit: match[2]!, min, max } : null;
  });
  if (parsed.length === 0 || parsed.length > 64 || parsed.some((c) => c === null)) {
    return reason('channels');
  }
  return {
    serial: upper,
    model,
    version: version as InventoryItem['version'],
    channels: parsed as InventoryItem['channels'],
  };
}

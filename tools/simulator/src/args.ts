/**
 * Parses `--devices N --interval 5s [--mqtt URL | --http URL] [--serials A,B] [--keys K1,K2] [--outages on|off]`;
 * each option may also be written `--name=value`.
 */
export interface SimulatorArgs {
  devices: number;
  intervalMs: number;
  mqttUrl?: string;
  httpUrl?: string;
  serials: string[];
  keys: string[];
  /** Simulate power cuts and network losses. */
  outages: boolean;
}

export class ArgsError extends Error {}

export function parseDuration(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!match) throw new ArgsError(`--interval: "${text}" is not a duration such as 500ms, 5s, 1m`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(match[2] ?? 's') as 'ms' | 's' | 'm' | 'h'];
  return Math.round(Number(match[1]) * unit);
}

function parseSwitch(text: string): boolean {
  if (text === 'on') return true;
  if (text === 'off') return false;
  throw new ArgsError('--outages must be on or off');
}

export function parseArgs(argv: string[]): SimulatorArgs {
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) throw new ArgsError(`unexpected argument "${arg}"`);
    // `--keys=K` takes any value, also one that starts with `--`: a device key is base64url and
    // may (a clean-clone run drew one that did, and the simulator refused it as a missing value).
    const equals = arg.indexOf('=');
    if (equals > 0) {
      values.set(arg.slice(2, equals), arg.slice(equals + 1));
      continue;
    }
    const value = argv[i + 1];
    if (value === undefined || value.startsWith('--')) throw new ArgsError(`${arg} needs a value`);
    values.set(arg.slice(2), value);
    i++;
  }
  const known = ['devices', 'interval', 'mqtt', 'http', 'serials', 'keys', 'outages'];
  for (const name of values.keys())
    if (!known.includes(name)) throw new ArgsError(`unknown option --${name}`);
  const devices = Number(values.get('devices') ?? '1');
  if (!Number.isInteger(devices) || devices < 1 || devices > 100_000) {
    throw new ArgsError('--devices must be a whole number from 1 to 100000');
  }
  if (values.has('mqtt') && values.has('http')) throw new ArgsError('choose one of --mqtt and --http');
  const serials =
    values.get('serials')?.split(',').filter(Boolean) ??
    Array.from({ length: devices }, (_, i) => `SIM${1001 + i}`);
  return {
    devices,
    intervalMs: parseDuration(values.get('interval') ?? '5s'),
    mqttUrl: values.get('mqtt') ?? (values.has('http') ? undefined : 'mqtt://127.0.0.1:1883'),
    httpUrl: values.get('http'),
    serials,
    keys: values.get('keys')?.split(',') ?? [],
    outages: parseSwitch(values.get('outages') ?? 'on'),
  };
}

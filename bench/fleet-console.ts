/**
 * The console beside a fleet: a hospital's staff open pages while its loggers report. The fleet
 * bench (fleet.bench.ts) loads the calls of a page load one after another with a few callers,
 * while every device keeps sending, and reports each call's rate and latency beside the fleet's
 * acknowledgements over the same seconds. On the embedded database both share its one thread, so
 * this is where a list call queued behind ingest, or ingest behind a list, would show.
 */
import { postJson } from '../apps/server/src/test/server-process';
import { ALARM_PAGE, DEVICE_PAGE, load, type Target } from './api.bench';

export interface ConsoleCallFigures {
  label: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  failures: number;
}

export interface ConsoleBesideFleet {
  connections: number;
  calls: ConsoleCallFigures[];
  /** The fleet's acknowledgement latencies while the console was loaded. */
  fleetLatencies: number[];
}

/** BENCH_FLEET_CONSOLE=0 leaves it out; _CONNECTIONS callers (default 10), _SECONDS a call (default 10). */
export function consoleOptionsFromEnv(): { connections: number; seconds: number } | null {
  if (process.env.BENCH_FLEET_CONSOLE === '0') return null;
  return {
    connections: Number(process.env.BENCH_FLEET_CONSOLE_CONNECTIONS ?? 10),
    seconds: Number(process.env.BENCH_FLEET_CONSOLE_SECONDS ?? 10),
  };
}

/**
 * The calls, for the administrator of the company that holds the fleet: its device list and
 * alarm list (a page of 20 of the whole fleet), one fleet device's detail and its last hour, and
 * the home page's figures, which count every device.
 */
async function targetsOf(baseUrl: string, token: string): Promise<Target[]> {
  const devices = await postJson<{ list: { id: string; serial: string }[] }>(
    baseUrl,
    '/api/device/pageDevices',
    { pageNum: 1, pageSize: 20, keyword: 'FLT' },
    token,
  );
  const device = devices.list[0];
  if (!device) throw new Error('no fleet device in the device list');
  const detail = await postJson<{ sensors: { id: string }[] }>(
    baseUrl,
    '/api/device/deviceDetail',
    { id: device.id },
    token,
  );
  const sensorId = detail.sensors[0]?.id;
  if (!sensorId) throw new Error(`fleet device ${device.serial} has no sensor`);
  const now = Date.now();
  return [
    DEVICE_PAGE,
    ALARM_PAGE,
    {
      label: 'deviceDetail (a fleet device)',
      method: 'POST',
      path: '/api/device/deviceDetail',
      body: { id: device.id },
    },
    {
      label: 'historyData (its last hour)',
      method: 'POST',
      path: '/api/device/historyData',
      body: { sensorId, startTime: now - 3_600_000, endTime: now + 600_000, maxPoints: 1000 },
    },
    {
      label: 'home overview (companyDataInfo)',
      method: 'POST',
      path: '/api/userOrganize/companyDataInfo',
      body: {},
    },
  ];
}

/**
 * Loads each call in turn for `seconds`; `fleetLatencies` is asked before and after each call, and
 * what it gives after is what the fleet acknowledged meanwhile.
 */
export async function loadConsoleBesideFleet(options: {
  baseUrl: string;
  token: string;
  connections: number;
  seconds: number;
  fleetLatencies: () => Promise<number[]>;
}): Promise<ConsoleBesideFleet> {
  const { baseUrl, token, connections, seconds } = options;
  const headers = { accessToken: token, language: 'en', platform: '1' };
  const calls: ConsoleCallFigures[] = [];
  const fleetLatencies: number[] = [];
  for (const target of await targetsOf(baseUrl, token)) {
    await options.fleetLatencies();
    const { requests: _total, ...figures } = await load(baseUrl, target, headers, seconds, true, connections);
    calls.push({ label: target.label, ...figures });
    for (const ms of await options.fleetLatencies()) fleetLatencies.push(ms);
  }
  return { connections, calls, fleetLatencies };
}

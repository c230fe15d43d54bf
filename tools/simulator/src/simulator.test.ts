import { describe, expect, it } from 'vitest';
import { ArgsError, parseArgs, parseDuration } from './args';
import { FREEZER, FRIDGE, temperatureAt } from './curve';
import { DeviceRunner } from './device-runner';
import { networkLossAt, powerCutAt, powerCutRise } from './outages';
import { backfillRecords, recordAt } from './payload';

const DAY = 86_400_000;

describe('cold-unit curves', () => {
  it('keep a fridge around its set point with compressor swings and door peaks', () => {
    const start = Date.UTC(2026, 0, 1);
    const values = Array.from({ length: 288 }, (_, i) => temperatureAt(FRIDGE, 1, start + i * 300_000));
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    expect(mean).toBeGreaterThan(4);
    expect(mean).toBeLessThan(7);
    expect(Math.min(...values)).toBeLessThan(4.5);
    expect(Math.max(...values)).toBeGreaterThan(6);
  });

  it('shows a freezer defrost as a warm excursion that recovers', () => {
    const defrostStart = 8 * 3_600_000 * 1000;
    const before = temperatureAt(FREEZER, 2, defrostStart - 30 * 60_000);
    const peak = Math.max(
      ...Array.from({ length: 20 }, (_, m) => temperatureAt(FREEZER, 2, defrostStart + m * 60_000)),
    );
    const after = temperatureAt(FREEZER, 2, defrostStart + 3 * 3_600_000);
    expect(peak - before).toBeGreaterThan(5);
    expect(Math.abs(after - FREEZER.setPoint)).toBeLessThan(3);
  });

  it('is deterministic for a seed and instant', () => {
    const ts = Date.UTC(2026, 5, 1, 3);
    expect(temperatureAt(FRIDGE, 9, ts)).toBe(temperatureAt(FRIDGE, 9, ts));
    expect(
      recordAt({ serial: 'S', key: '', profile: FRIDGE, seed: 9, channelCount: 2 }, ts).channels,
    ).toHaveLength(2);
  });

  it('measures humidity on channel 2 unless the device names its humidity channels', () => {
    const ts = Date.UTC(2026, 5, 1, 3);
    const device = { serial: 'S', key: '', profile: FRIDGE, seed: 9, channelCount: 3 };
    const values = (humidityChannels?: number[]) =>
      recordAt({ ...device, humidityChannels }, ts).channels.map((c) => c.v);
    const [, defaultCh2] = values();
    expect(defaultCh2).toBeGreaterThan(40);
    // Two thermometers and a hygrometer on channel 3: every temperature near the set point.
    const [t1, t2, h3] = values([3]);
    expect(Math.abs(t1! - FRIDGE.setPoint)).toBeLessThan(5);
    expect(Math.abs(t2! - FRIDGE.setPoint)).toBeLessThan(5);
    expect(h3).toBeGreaterThan(40);
    expect(t1).toBe(values()[0]);
  });

  it('back-fills one record per interval over an outage', () => {
    const device = { serial: 'S', key: '', profile: FRIDGE, seed: 3, channelCount: 1 };
    const records = backfillRecords(device, 0, DAY, 300_000);
    expect(records).toHaveLength(288);
    expect(records[1]!.ts - records[0]!.ts).toBe(300_000);
  });
});

describe('command line', () => {
  it('reads devices, interval and transport', () => {
    expect(
      parseArgs(['--devices', '3', '--interval', '500ms', '--http', 'http://127.0.0.1:8080']),
    ).toMatchObject({
      devices: 3,
      intervalMs: 500,
      httpUrl: 'http://127.0.0.1:8080',
      mqttUrl: undefined,
      serials: ['SIM1001', 'SIM1002', 'SIM1003'],
    });
    expect(parseDuration('2m')).toBe(120_000);
  });

  it('explains bad options', () => {
    expect(() => parseArgs(['--devices', '0'])).toThrow(ArgsError);
    expect(() => parseArgs(['--interval', 'soon'])).toThrow('--interval');
    expect(() => parseArgs(['--mqtt', 'mqtt://a', '--http', 'http://b'])).toThrow('choose one');
    expect(() => parseArgs(['--colour', 'red'])).toThrow('unknown option --colour');
  });

  it('takes `--name=value`, so a device key that starts with -- is a value, not an option', () => {
    const args = parseArgs(['--serials=SIM1005', '--keys=--Xq7-k', '--outages', 'off']);
    expect(args.serials).toEqual(['SIM1005']);
    expect(args.keys).toEqual(['--Xq7-k']);
    expect(args.outages).toBe(false);
    expect(() => parseArgs(['--keys', '--Xq7-k'])).toThrow('--keys needs a value');
  });
});

describe('outages', () => {
  const plan = { powerCutPerHour: 1, powerCutMinutes: 30, networkLossPerHour: 1, networkLossMinutes: 10 };

  it('warm the cabinet and switch to battery during a power cut, then recover', () => {
    const device = { serial: 'S', key: '', profile: FRIDGE, seed: 11, channelCount: 1, outages: plan };
    const hour = Date.UTC(2026, 2, 3, 4);
    const minutes = Array.from({ length: 120 }, (_, m) => hour + m * 60_000);
    const cutMinutes = minutes.filter((ts) => powerCutAt(plan, 11, ts));
    expect(cutMinutes.length).toBeGreaterThan(10);
    const during = recordAt(device, cutMinutes[cutMinutes.length - 1]!);
    const plain = recordAt({ ...device, outages: undefined }, cutMinutes[cutMinutes.length - 1]!);
    expect(during.power).toBe('battery');
    expect(during.battery).toBeLessThan(100);
    expect(during.channels[0]!.v - plain.channels[0]!.v).toBeGreaterThan(2);
    const after = minutes.find((ts) => ts > cutMinutes[cutMinutes.length - 1]! && !powerCutAt(plan, 11, ts))!;
    expect(recordAt(device, after).power).toBe('mains');
  });

  it('plans network losses that the CLI turns into back-fills', () => {
    const hour = Date.UTC(2026, 2, 3, 4);
    const lost = Array.from({ length: 120 }, (_, m) => hour + m * 60_000).filter((ts) =>
      networkLossAt(plan, 5, ts),
    );
    expect(lost.length).toBeGreaterThanOrEqual(10);
    expect(powerCutRise(0)).toBe(0);
    expect(powerCutRise(60)).toBeGreaterThan(powerCutRise(10));
  });
});

describe('a simulated logger', () => {
  it('buffers records during a network loss and sends them with the next record when it returns', () => {
    const plan = { powerCutPerHour: 0, powerCutMinutes: 0, networkLossPerHour: 1, networkLossMinutes: 10 };
    const runner = new DeviceRunner({
      serial: 'S',
      key: '',
      profile: FRIDGE,
      seed: 5,
      channelCount: 1,
      outages: plan,
    });
    const hour = Date.UTC(2026, 2, 3, 4);
    const sent: number[] = [];
    let largest = 0;
    for (let m = 0; m < 120; m++) {
      const out = runner.tick(hour + m * 60_000);
      if (!out) continue;
      largest = Math.max(largest, out.records.length);
      sent.push(...out.records.map((r) => r.ts));
    }
    expect(largest).toBeGreaterThan(5);
    // Every minute measured is sent exactly once, in order.
    expect(sent.length).toBe(new Set(sent).size);
    expect(sent).toEqual([...sent].sort((a, b) => a - b));
    expect(sent.length + (runner.tick(hour + 120 * 60_000) ? 0 : 1)).toBeGreaterThanOrEqual(118);
  });

  it('reports power off and on as events, and keeps records a failed send gave back', () => {
    const plan = { powerCutPerHour: 1, powerCutMinutes: 20, networkLossPerHour: 0, networkLossMinutes: 0 };
    const runner = new DeviceRunner({
      serial: 'S',
      key: '',
      profile: FRIDGE,
      seed: 8,
      channelCount: 1,
      outages: plan,
    });
    const hour = Date.UTC(2026, 2, 3, 4);
    const events: string[] = [];
    for (let m = 0; m < 120; m++)
      events.push(...(runner.tick(hour + m * 60_000)?.events.map((e) => e.event) ?? []));
    expect(events.slice(0, 2)).toEqual(['powerOff', 'powerOn']);
    const out = runner.tick(hour + 200 * 60_000)!;
    runner.requeue(out.records);
    expect(runner.tick(hour + 201 * 60_000)!.records).toHaveLength(2);
  });
});

import { describe, expect, it } from 'vitest';
import { ArgsError, parseArgs, parseDuration } from './args';
import { FREEZER, FRIDGE, temperatureAt } from './curve';
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
});

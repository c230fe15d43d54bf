import { isTimeZone, SaveAlarmSettingRequest } from '@coldchain/contract';
import { describe, expect, it } from 'vitest';

/** The contract's one time zone check (packages/contract/src/time-zone.ts), answers kept. */
describe('time zone names', () => {
  it('knows IANA names and UTC, refuses made-up ones, and answers a repeat the same', () => {
    for (const zone of ['Asia/Shanghai', 'Europe/Berlin', 'UTC', 'America/Sao_Paulo'])
      expect([isTimeZone(zone), isTimeZone(zone)], zone).toEqual([true, true]);
    for (const zone of ['Mars/Olympus', '', 'Asia/Shanghai ', '../etc/passwd'])
      expect([isTimeZone(zone), isTimeZone(zone)], zone).toEqual([false, false]);
  });

  it('keeps answering correctly after more made-up names than it remembers', () => {
    for (let i = 0; i < 1_500; i++) expect(isTimeZone(`Nowhere/Zone${i}`)).toBe(false);
    expect(isTimeZone('Asia/Kuala_Lumpur')).toBe(true);
    expect(isTimeZone('Nowhere/Zone1499')).toBe(false);
  });

  it('still refuses a rule whose periods name an unknown zone', () => {
    const rule = (timeZone: string) =>
      SaveAlarmSettingRequest.safeParse({
        carrier: 'device',
        targetId: '1',
        alarmType: 'overLimit',
        level: 1,
        max: 8,
        timeSlot: 'periods',
        periods: [{ start: '08:00', end: '18:00' }],
        timeZone,
        notifierIds: [],
        repeat: 1,
        channels: ['email'],
      });
    expect(rule('Asia/Shanghai').error?.issues).toBeUndefined();
    expect(rule('Mars/Olympus').error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['timeZone', 'rule.timeZone'],
    ]);
  });
});

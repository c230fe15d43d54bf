import type { AlarmType } from '@coldchain/contract';
import type { TimeSlot, ValueRule } from './alarm-engine';
import type { SensorInfo, SettingRow } from './alarm-writer';

/** Sensor ranges are stored as 4-byte reals; 7 significant digits turn 7.699999809 back into 7.7. */
export function fromReal(value: number): number {
  return Number(value.toPrecision(7));
}

export function slotOf(setting: SettingRow): TimeSlot {
  return {
    allDay: setting.allDay,
    periods: setting.periods,
    weekdays: setting.weekdays,
    timeZone: setting.timeZone,
  };
}

/**
 * The engine's view of a value setting on one sensor. An `abnormal` setting judges the sensor's
 * measuring range unless it names its own limits (spec section 5: "a value beyond the monitor's
 * range gives a device abnormal alarm").
 */
export function valueRuleOf(setting: SettingRow, sensor: SensorInfo): ValueRule {
  return {
    kind: setting.alarmType as ValueRule['kind'],
    ...limitsOf(setting, sensor),
    delayMs: setting.delaySeconds * 1000,
    hysteresis: setting.hysteresis,
    level: setting.level,
    slot: slotOf(setting),
  };
}

/** The fields of a value setting its limits depend on. */
export type LimitFields = Pick<SettingRow, 'alarmType' | 'min' | 'max' | 'preMin' | 'preMax'>;

/**
 * The limits a value setting judges a sensor by: its own, or for `abnormal` without limits the
 * sensor's measuring range. The engine's rule and the quiet pass's check (alarm-rule-cache.ts)
 * both take them from here, so the two can never disagree on what is out of range.
 */
export function limitsOf(
  setting: LimitFields,
  sensor: Pick<SensorInfo, 'rangeMin' | 'rangeMax'>,
): Pick<ValueRule, 'min' | 'max' | 'preMin' | 'preMax'> {
  const abnormal = setting.alarmType === 'abnormal';
  return {
    min: abnormal ? (setting.min ?? fromReal(sensor.rangeMin)) : setting.min,
    max: abnormal ? (setting.max ?? fromReal(sensor.rangeMax)) : setting.max,
    preMin: abnormal ? null : setting.preMin,
    preMax: abnormal ? null : setting.preMax,
  };
}

/** The limits an alarm text quotes for a type. */
export function limitsFor(rule: ValueRule, alarmType: AlarmType): { min: number | null; max: number | null } {
  return alarmType === 'preAlarm' ? { min: rule.preMin, max: rule.preMax } : { min: rule.min, max: rule.max };
}

export const VALUE_TYPES: AlarmType[] = ['overLimit', 'preAlarm', 'abnormal'];

/** Device events that raise an alarm when a setting of that type exists. */
export const EVENT_TYPES: Record<string, AlarmType> = {
  powerOff: 'powerOff',
  lowBattery: 'lowBattery',
  call: 'call',
};

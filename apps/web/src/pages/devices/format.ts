import { DeviceState, type SensorView } from '@coldchain/contract';
import dayjs from 'dayjs';

/** Spec section 9: a 10-digit timestamp is in seconds; the server sends milliseconds. */
export function toMillis(ts: number): number {
  return Math.abs(ts) < 1e11 ? ts * 1000 : ts;
}

/** YYYY-MM-DD HH:mm:ss in the browser's time zone; '-' when there is no time. */
export function formatTime(ts: number | null | undefined): string {
  if (ts === null || ts === undefined) return '-';
  return dayjs(toMillis(ts)).format('YYYY-MM-DD HH:mm:ss');
}

export function formatValue(value: number | null | undefined, unit = ''): string {
  if (value === null || value === undefined) return '-';
  const text = Number.isInteger(value) ? String(value) : value.toFixed(1);
  return unit ? `${text} ${unit}` : text;
}

export function formatSensorValue(sensor: SensorView): string {
  return formatValue(sensor.value, sensor.unit);
}

export const DEVICE_STATES = [
  DeviceState.Normal,
  DeviceState.Alarm,
  DeviceState.Abnormal,
  DeviceState.Offline,
  DeviceState.Service,
  DeviceState.Disposed,
] as const;

/** antd Tag colours: alarm red, abnormal orange, offline grey, service blue, disposed dark. */
export const STATE_COLORS: Record<number, string> = {
  [DeviceState.Normal]: 'green',
  [DeviceState.Alarm]: 'red',
  [DeviceState.Abnormal]: 'orange',
  [DeviceState.Offline]: 'default',
  [DeviceState.Service]: 'blue',
  [DeviceState.Disposed]: 'purple',
};

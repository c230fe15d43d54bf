import dayjs from 'dayjs';
import { formatTime, toMillis } from '../devices/format';

export { formatTime };

/** antd Tag colours of the use states: in use green, under service blue, disposed dark, standby grey. */
export const USE_STATE_COLORS: Record<number, string> = { 1: 'green', 2: 'blue', 3: 'purple', 4: 'default' };

export function formatDate(ts: number | null | undefined): string {
  if (ts === null || ts === undefined) return '-';
  return dayjs(toMillis(ts)).format('YYYY-MM-DD');
}

/** 95 -> "1 h 35 min" style figures are built by the caller's strings; this only splits. */
export function splitMinutes(minutes: number): { hours: number; minutes: number } {
  const whole = Math.max(0, Math.round(minutes));
  return { hours: Math.floor(whole / 60), minutes: whole % 60 };
}

export function formatNumber(value: number | null | undefined, unit = ''): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '-';
  const text = Number.isInteger(value) ? String(value) : value.toFixed(1);
  return unit ? `${text} ${unit}` : text;
}

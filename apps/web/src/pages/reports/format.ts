import dayjs from 'dayjs';

export function formatTime(ts: number | null | undefined): string {
  return ts === null || ts === undefined ? '-' : dayjs(ts).format('YYYY-MM-DD HH:mm:ss');
}

export function formatDay(ts: number): string {
  return dayjs(ts).format('YYYY-MM-DD HH:mm');
}

/** 1536 -> "1.5 KB". */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '-';
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** 2340 -> "2.3 s". */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '-';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

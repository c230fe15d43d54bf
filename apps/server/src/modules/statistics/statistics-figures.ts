import {
  AlarmChannels,
  type AvailabilityDevice,
  type AvailabilityRow,
  type NotificationOutcome,
  NotificationOutcomes,
  type NotificationRow,
  type ResolveTimeRow,
  STATISTICS_WORST_DEVICES,
} from '@coldchain/contract';
import { DeliveryStatus } from '../delivery/delivery-status';

/** Figures as the statement answers them, turned into the wire shapes (statistics.service.ts). */

export interface ResolveRaw {
  departmentId: string | null;
  all: number;
  resolved: number;
  open: number;
  median: number | null;
  p90: number | null;
  worst: number | null;
}

export interface DeviceRaw {
  deviceId: string;
  departmentId: string | null;
  serial: string;
  name: string;
  expected: number;
  received: number;
}

const round1 = (v: number | null | undefined) =>
  v === null || v === undefined ? null : Math.round(Number(v) * 10) / 10;

export function resolveTimes(raw: ResolveRaw[]): { overall: ResolveTimeRow; rows: ResolveTimeRow[] } {
  const present = (r: ResolveRaw | undefined, departmentId: string | null): ResolveTimeRow => ({
    departmentId,
    resolved: Number(r?.resolved ?? 0),
    open: Number(r?.open ?? 0),
    medianMinutes: round1(r?.median),
    p90Minutes: round1(r?.p90),
    worstMinutes: round1(r?.worst),
  });
  const overall = raw.find((r) => Number(r.all) === 1);
  return {
    overall: present(overall, null),
    rows: raw
      .filter((r) => Number(r.all) === 0)
      .map((r) => present(r, r.departmentId))
      .sort((a, b) => (b.worstMinutes ?? -1) - (a.worstMinutes ?? -1)),
  };
}

/** Hours summed over devices; a device never covers more hours than it was expected. */
function availabilityOf(
  rows: { expected: number; received: number }[],
): Pick<AvailabilityRow, 'devices' | 'expectedHours' | 'coveredHours' | 'ratio'> {
  const expected = rows.reduce((sum, r) => sum + r.expected, 0);
  const covered = rows.reduce((sum, r) => sum + Math.min(r.received, r.expected), 0);
  return {
    devices: rows.length,
    expectedHours: expected,
    coveredHours: covered,
    ratio: expected > 0 ? Math.round((covered / expected) * 10_000) / 10_000 : null,
  };
}

export function availability(raw: DeviceRaw[]) {
  const devicesOf = raw.map((r) => ({ ...r, expected: Number(r.expected), received: Number(r.received) }));
  const byDepartment = new Map<string | null, typeof devicesOf>();
  for (const d of devicesOf)
    byDepartment.set(d.departmentId, [...(byDepartment.get(d.departmentId) ?? []), d]);
  const rows: AvailabilityRow[] = [...byDepartment].map(([departmentId, list]) => ({
    departmentId,
    ...availabilityOf(list),
  }));
  rows.sort((a, b) => (a.ratio ?? 2) - (b.ratio ?? 2));
  const perDevice: AvailabilityDevice[] = devicesOf
    .map((d) => ({
      deviceId: d.deviceId,
      serial: d.serial,
      name: d.name,
      departmentId: d.departmentId,
      ...availabilityOf([d]),
    }))
    .sort((a, b) => (a.ratio ?? 2) - (b.ratio ?? 2) || a.serial.localeCompare(b.serial));
  return {
    overall: { departmentId: null, ...availabilityOf(devicesOf) },
    rows,
    // Devices with a reading in every expected hour are not "least available": only those below 100 %.
    worst: perDevice.filter((d) => d.ratio !== null && d.ratio < 1).slice(0, STATISTICS_WORST_DEVICES),
    all: perDevice,
  };
}

/** alarm_notifications.status -> the outcome the chart shows (delivery/delivery-status.ts). */
const OUTCOME_OF: Record<string, NotificationOutcome> = {
  [DeliveryStatus.Delivered]: 'delivered',
  [DeliveryStatus.Sent]: 'sent',
  [DeliveryStatus.Failed]: 'failed',
  [DeliveryStatus.NotConfigured]: 'notSent',
  [DeliveryStatus.NoRecipient]: 'notSent',
  [DeliveryStatus.NoCredit]: 'notSent',
  [DeliveryStatus.DailyCap]: 'notSent',
  [DeliveryStatus.Pending]: 'pending',
  [DeliveryStatus.Sending]: 'pending',
  [DeliveryStatus.Retrying]: 'pending',
};

export function notificationCounts(raw: [string, string, number][]): {
  total: number;
  rows: NotificationRow[];
} {
  const empty = () =>
    Object.fromEntries(NotificationOutcomes.map((o) => [o, 0])) as Record<NotificationOutcome, number>;
  const rows: NotificationRow[] = AlarmChannels.map((channel) => ({ channel, counts: empty() }));
  let total = 0;
  for (const [channel, status, n] of raw) {
    const row = rows.find((r) => r.channel === channel);
    if (!row) continue;
    row.counts[OUTCOME_OF[status] ?? 'failed'] += Number(n);
    total += Number(n);
  }
  return { total, rows };
}

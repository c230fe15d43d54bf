import { z } from 'zod';

/*
 * Periods when a device's service had lapsed (docs/decisions.md, "Data recovery"). Readings of a
 * lapsed period are kept but hidden until an approved data recovery order covers it. Periods are
 * half-open: the start is included, the end is not (a reading at the renewal instant is visible).
 */

const Id = z.coerce.string().regex(/^[1-9]\d{0,15}$/, { error: 'rule.id' });

/** `/api/device/serviceLapses`: the lapsed periods of one device and how far each is recovered. */
export const ServiceLapsesRequest = z.object({ deviceId: Id });
export type ServiceLapsesRequest = z.infer<typeof ServiceLapsesRequest>;

export const LapseRecoveries = ['none', 'partial', 'full'] as const;
export type LapseRecovery = (typeof LapseRecoveries)[number];

export interface TimeRangeView {
  startTime: number;
  endTime: number;
}

export interface ServiceLapseView {
  startTime: number;
  /** For a lapse still open (the device is expired), the time of the answer. */
  endTime: number;
  open: boolean;
  recovery: LapseRecovery;
  /** The parts of the lapse still hidden, in time order; empty once fully recovered. */
  hidden: TimeRangeView[];
}

export interface ServiceLapsesView {
  deviceId: string;
  expireTime: number;
  /** Oldest first. */
  lapses: ServiceLapseView[];
}

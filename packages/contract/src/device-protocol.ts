import { z } from 'zod';

/**
 * Device protocol v1 payloads (API.md). Devices get plain English reasons, not translated
 * messages: the reader is an integrator's log, not a console user.
 */
export const DeviceModes = ['normal', 'loading', 'defrost', 'service'] as const;
export type DeviceMode = (typeof DeviceModes)[number];

/** Epoch milliseconds; a 10-digit number is seconds (API.md). */
const Instant = z
  .number()
  .finite()
  .nonnegative()
  .transform((v) => (v < 1e11 ? Math.round(v * 1000) : Math.round(v)));

/**
 * Readings are stored as PostgreSQL `real` (a 32-bit float). A larger magnitude cannot be stored,
 * so it is refused here, naming the field, instead of failing the write. A magnitude below the
 * smallest normal 32-bit float is stored as 0: storing rounds every value to 7 significant digits
 * anyway, and no sensor measures 1e-38 of anything (docs/decisions.md).
 */
export const FLOAT4_MAX = 3.4028234663852886e38;
export const FLOAT4_MIN_NORMAL = 1.1754943508222875e-38;
const ChannelValue = z
  .number()
  .finite()
  .refine((v) => Math.abs(v) <= FLOAT4_MAX, {
    message: 'must lie between -3.4e38 and 3.4e38 (readings are stored as 32-bit floats)',
  })
  .transform((v) => (Math.abs(v) < FLOAT4_MIN_NORMAL ? 0 : v));

export const UpRecord = z.object({
  ts: Instant,
  channels: z
    .array(z.object({ ch: z.number().int().min(1).max(64), v: ChannelValue }))
    .min(1)
    .max(64),
  /** Percent, stored as a whole number (a fraction would not fit the column). */
  battery: z.number().min(0).max(100).transform(Math.round).optional(),
  power: z.enum(['mains', 'battery']).optional(),
  mode: z.enum(DeviceModes).default('normal'),
  /** GPS position (WGS-84 degrees), optional; stored on the device when both are sent. */
  lat: z.number().min(-90).max(90).optional(),
  lng: z.number().min(-180).max(180).optional(),
});
export type UpRecord = z.infer<typeof UpRecord>;

export const UpPayload = z.object({ records: z.array(UpRecord).min(1).max(5000) });
export type UpPayload = z.infer<typeof UpPayload>;

export const DeviceEvents = [
  'powerOff',
  'powerOn',
  'lowBattery',
  'call',
  'doorOpen',
  'doorClose',
  'reboot',
] as const;
export type DeviceEventName = (typeof DeviceEvents)[number];
/** Only the protocol's events are stored: any other name is refused, listing the known ones. */
export const EventPayload = z.object({
  ts: Instant,
  event: z.enum(DeviceEvents, {
    error: (issue) =>
      typeof issue.input === 'string'
        ? `unknown event "${issue.input.slice(0, 40)}"; known events: ${DeviceEvents.join(', ')}`
        : `expected one of ${DeviceEvents.join(', ')}`,
  }),
});
export type EventPayload = z.infer<typeof EventPayload>;

/** One line for a rejected payload: `records.0.channels.1.v: Invalid input: expected number`. */
export function describePayloadError(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid payload';
  const where = issue.path.length ? issue.path.join('.') : 'payload';
  return `${where}: ${issue.message}`;
}

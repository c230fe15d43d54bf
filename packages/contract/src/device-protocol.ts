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

export const UpRecord = z.object({
  ts: Instant,
  channels: z
    .array(z.object({ ch: z.number().int().min(1).max(64), v: z.number().finite() }))
    .min(1)
    .max(64),
  battery: z.number().min(0).max(100).optional(),
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
export const EventPayload = z.object({ ts: Instant, event: z.string().min(1).max(40) });
export type EventPayload = z.infer<typeof EventPayload>;

/** One line for a rejected payload: `records.0.channels.1.v: Invalid input: expected number`. */
export function describePayloadError(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid payload';
  const where = issue.path.length ? issue.path.join('.') : 'payload';
  return `${where}: ${issue.message}`;
}

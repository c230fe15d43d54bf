import { z } from 'zod';

const Id = z.coerce.string().regex(/^[1-9]\d{0,15}$/, { error: 'rule.id' });

/** Events an address may subscribe to (API.md "Push docking"); `test` is sent by `testUrl` only. */
export const PushEvents = ['reading', 'alarm', 'alarmResolved', 'deviceState'] as const;
export type PushEvent = (typeof PushEvents)[number];

/** Address states: 1 pending (until a test delivery is answered 2xx), 2 enabled, 3 stopped. */
export const PushUrlState = { Pending: 1, Enabled: 2, Stopped: 3 } as const;
export type PushUrlState = (typeof PushUrlState)[keyof typeof PushUrlState];

/** A company's push addresses at most (stopped ones count too until deleted). */
export const PUSH_MAX_URLS = 20;
/** Devices one address may be bound to at most. */
export const PUSH_MAX_DEVICES = 5_000;
/** Readings in one delivery at most (API.md: "readings batched"). */
export const PUSH_MAX_ITEMS = 500;

/** `/api/push/saveUrl`: a new address (no id) or an edit of one. */
export const SavePushUrlRequest = z.object({
  id: Id.optional(),
  name: z.string().trim().min(2, { error: 'rule.pushName' }).max(50, { error: 'rule.pushName' }),
  url: z
    .string()
    .trim()
    .max(2000, { error: 'rule.pushUrl' })
    .regex(/^https?:\/\/[^\s]+$/i, { error: 'rule.pushUrl' }),
  events: z
    .array(z.enum(PushEvents, { error: 'rule.pushEvents' }))
    .min(1, { error: 'rule.pushEvents' })
    .max(PushEvents.length, { error: 'rule.pushEvents' }),
});
export type SavePushUrlRequest = z.infer<typeof SavePushUrlRequest>;

export interface SavedPushUrl {
  id: string;
  /** Present on creation only: the key of X-Signature; the server keeps it encrypted. */
  secret?: string;
}

export const PushUrlIdRequest = z.object({ id: Id });
export type PushUrlIdRequest = z.infer<typeof PushUrlIdRequest>;

/** `/api/push/setDevices`: the devices whose data goes to this address, replacing the list. */
export const SetPushDevicesRequest = z.object({
  id: Id,
  deviceIds: z.array(Id).max(PUSH_MAX_DEVICES, { error: 'rule.pushDevices' }),
});
export type SetPushDevicesRequest = z.infer<typeof SetPushDevicesRequest>;

export const PagePushUrlsRequest = z.object({
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type PagePushUrlsRequest = z.infer<typeof PagePushUrlsRequest>;

export interface PushUrlView {
  id: string;
  name: string;
  url: string;
  events: PushEvent[];
  state: PushUrlState;
  deviceIds: string[];
  createdBy: string;
  createTime: number;
  /** Deliveries waiting or being retried. */
  queued: number;
  /** Since when deliveries fail without a success (null: the last one succeeded). */
  failingSince: number | null;
  lastDeliveryAt: number | null;
}

/** `/api/push/pageDeliveries`: an address's deliveries, newest first. */
export const PagePushDeliveriesRequest = z.object({
  id: Id,
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type PagePushDeliveriesRequest = z.infer<typeof PagePushDeliveriesRequest>;

export const PushDeliveryStatuses = ['queued', 'sending', 'delivered', 'retrying', 'failed'] as const;
export type PushDeliveryStatus = (typeof PushDeliveryStatuses)[number];

export interface PushDeliveryView {
  id: string;
  event: PushEvent | 'test';
  /** When it was queued. */
  time: number;
  /** The last answer's HTTP status; null before an answer (or when none came). */
  httpStatus: number | null;
  durationMs: number | null;
  attempts: number;
  status: PushDeliveryStatus;
  /** Why the last attempt failed, in words; '' when it did not. */
  error: string;
  items: number;
}

/** The body of a delivery (API.md "Push docking"); `X-Signature` signs its raw text. */
export interface PushDeliveryBody {
  deliveryId: string;
  event: PushEvent | 'test';
  companyId: string;
  time: number;
  items: unknown[];
}

export interface PushReadingItem {
  deviceSerial: string;
  sensorId: string;
  channel: number;
  ts: number;
  value: number;
}

/** `/api/push/testUrl`: how the receiver answered the `test` delivery, and the address's state after it. */
export interface PushTestResult {
  ok: boolean;
  httpStatus: number | null;
  durationMs: number | null;
  error: string;
  state: PushUrlState;
}

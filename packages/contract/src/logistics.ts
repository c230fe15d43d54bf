import { z } from 'zod';
import { EpochMs, isMobile } from './rules';
import { isTimeZone } from './time-zone';

const Id = z.coerce.string().regex(/^[1-9]\d{0,15}$/, { error: 'rule.id' });

const Paging = {
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
};

/** The supplier-enabled service every logistics call needs (spec section 6). */
export const LOGISTICS_SERVICE = 'service:logistics';

/**
 * A longitude or latitude: a number within its range, or left out. The console sends the pair
 * or neither (checked below), since one half of a position places nothing on a map.
 */
const Longitude = z
  .number({ error: 'rule.longitude' })
  .min(-180, { error: 'rule.longitude' })
  .max(180, { error: 'rule.longitude' });
const Latitude = z
  .number({ error: 'rule.latitude' })
  .min(-90, { error: 'rule.latitude' })
  .max(90, { error: 'rule.latitude' });

/** A contact's number, by the same rule as the other phone fields (profile.ts). */
const ContactPhone = z
  .string()
  .trim()
  .min(1)
  .max(20)
  .refine((v) => isMobile(v), { error: 'rule.phone' });

/**
 * The receiving company's code: the 12-digit code of its top department, which the company
 * gives to its partners (docs/decisions.md, "Logistics addresses"). An empty string unlinks.
 */
const ReceiverCompanyCode = z.union([
  z.literal(''),
  z
    .string()
    .trim()
    .regex(/^\d{12}$/, { error: 'rule.receiverCompanyCode' }),
]);

/** `/api/logistics/saveAddress` (API.md "Logistics"): adds, or edits when `id` is given. */
export const SaveAddressRequest = z
  .object({
    id: Id.optional(),
    name: z.string().trim().min(1).max(100),
    contact: z.string().trim().min(1).max(50),
    phone: ContactPhone,
    address: z.string().trim().min(1).max(255),
    region: z.string().trim().max(255).optional(),
    lng: Longitude.nullable().optional(),
    lat: Latitude.nullable().optional(),
    remarks: z.string().trim().max(255).optional(),
    receiverCompanyCode: ReceiverCompanyCode.optional(),
  })
  .refine((v) => (v.lng == null) === (v.lat == null), {
    error: 'rule.positionPair',
    path: ['lat'],
  });
export type SaveAddressRequest = z.infer<typeof SaveAddressRequest>;

export const AddressIdRequest = z.object({ id: Id });
export type AddressIdRequest = z.infer<typeof AddressIdRequest>;

/** `/api/logistics/pageAddresses`: `keyword` matches name, contact, phone or address. */
export const PageAddressesRequest = z.object({
  ...Paging,
  keyword: z.string().trim().max(100).optional(),
  region: z.string().trim().max(255).optional(),
});
export type PageAddressesRequest = z.infer<typeof PageAddressesRequest>;

/** One address as the list and the detail answer it. */
export interface AddressView {
  id: string;
  name: string;
  contact: string;
  phone: string;
  region: string;
  address: string;
  lng: number | null;
  lat: number | null;
  remarks: string;
  /** The receiving company on the platform, named by the code this company gave; null if none. */
  receiverCompany: { code: string; name: string } | null;
  createTime: number;
  updateTime: number;
}

/**
 * Delivery order states (API.md "Logistics"): created, in transit (departure opens the record),
 * arrived (arrival closes it), received (accepted), rejected, cancelled.
 */
export const DeliveryState = {
  Created: 1,
  InTransit: 2,
  Arrived: 3,
  Received: 4,
  Rejected: 5,
  Cancelled: 6,
} as const;
export type DeliveryState = (typeof DeliveryState)[keyof typeof DeliveryState];

/** A temperature or humidity limit: a finite number. */
const Limit = z.number({ error: 'rule.number' }).min(-100).max(200);

/** An instant as epoch milliseconds, by the shared rule (a named message, year 9999 at most). */
const Instant = EpochMs;

/** One line of goods: what travels, how many, and its batch or lot. */
export const DeliveryGoods = z.object({
  name: z.string().trim().min(1).max(100),
  quantity: z.string().trim().min(1).max(50),
  batch: z.string().trim().max(50).optional(),
});
export type DeliveryGoods = z.infer<typeof DeliveryGoods>;

/** Longest list of monitors travelling with one shipment. */
export const MAX_DELIVERY_DEVICES = 20;

/** `/api/logistics/saveDelivery`: creates, or edits a created (not yet departed) order when `id` is given. */
export const SaveDeliveryRequest = z
  .object({
    id: Id.optional(),
    senderAddressId: Id,
    receiverAddressId: Id,
    goods: z.array(DeliveryGoods).min(1).max(50),
    tempMin: Limit,
    tempMax: Limit,
    humidityMin: Limit.nullable().optional(),
    humidityMax: Limit.nullable().optional(),
    deviceIds: z.array(Id).min(1).max(MAX_DELIVERY_DEVICES),
    carrier: z.string().trim().max(100).optional(),
    vehicle: z.string().trim().max(50).optional(),
    plannedDeparture: Instant.nullable().optional(),
    plannedArrival: Instant.nullable().optional(),
    remarks: z.string().trim().max(500).optional(),
  })
  .refine((v) => v.tempMin < v.tempMax, { error: 'rule.tempRange', path: ['tempMax'] })
  .refine((v) => v.humidityMin == null || v.humidityMax == null || v.humidityMin < v.humidityMax, {
    error: 'rule.humidityRange',
    path: ['humidityMax'],
  })
  .refine((v) => v.senderAddressId !== v.receiverAddressId, {
    error: 'rule.sameAddress',
    path: ['receiverAddressId'],
  });
export type SaveDeliveryRequest = z.infer<typeof SaveDeliveryRequest>;

export const DeliveryIdRequest = z.object({ id: Id });
export type DeliveryIdRequest = z.infer<typeof DeliveryIdRequest>;

/** `/api/logistics/pageDeliveries` and `/api/logistics/pageReceiving`. */
export const PageDeliveriesRequest = z.object({
  ...Paging,
  keyword: z.string().trim().max(100).optional(),
  state: z.coerce.number().int().min(1).max(6).optional(),
});
export type PageDeliveriesRequest = z.infer<typeof PageDeliveriesRequest>;

/** A photo uploaded through `/api/file/upload` or `/api/logistics/linkPhoto` (its returned address). */
const PhotoUrl = z.string().trim().max(500);

/** `/api/logistics/receiveDelivery`: the receiving company accepts or rejects an arrived shipment. */
export const ReceiveDeliveryRequest = z.object({
  id: Id,
  accepted: z.boolean(),
  remarks: z.string().trim().max(500).optional(),
  photo: PhotoUrl.optional(),
  signPassword: z.string().max(64).optional(),
});
export type ReceiveDeliveryRequest = z.infer<typeof ReceiveDeliveryRequest>;

/** `/api/logistics/sendReceiptLink`: a signed link that expires, for a receiver outside the platform. */
export const SendReceiptLinkRequest = z.object({
  id: Id,
  channel: z.enum(['email', 'sms']),
  recipient: z.string().trim().min(3).max(100),
  validDays: z.number().int().min(1).max(30).default(7),
  language: z.enum(['en', 'cn']).default('en'),
});
export type SendReceiptLinkRequest = z.infer<typeof SendReceiptLinkRequest>;

/** The token of a receipt link (the link's only credential). */
const LinkToken = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{20,100}$/, { error: 'rule.receiptLink' });

/** `/api/logistics/linkReceipt`: the receipt page of a link, without login. */
export const LinkReceiptRequest = z.object({ token: LinkToken });
export type LinkReceiptRequest = z.infer<typeof LinkReceiptRequest>;

/** A drawn signature as a PNG data URL (the receipt page's signature pad). */
const DrawnSignature = z
  .string()
  .max(300_000)
  .regex(/^data:image\/png;base64,[A-Za-z0-9+/=]+$/, { error: 'rule.drawnSignature' });

/** `/api/logistics/linkReceive`: a receiver outside the platform accepts or rejects by name and drawn signature. */
export const LinkReceiveRequest = z.object({
  token: LinkToken,
  accepted: z.boolean(),
  remarks: z.string().trim().max(500).optional(),
  signerName: z.string().trim().min(1).max(50),
  signature: DrawnSignature,
  photo: PhotoUrl.optional(),
});
export type LinkReceiveRequest = z.infer<typeof LinkReceiveRequest>;

/** `/api/logistics/deliveryNote` (and `/api/logistics/linkDeliveryNote` with `token`): the PDF or xlsx. */
const NoteZone = z.string().trim().max(64).refine(isTimeZone, { error: 'rule.timeZone' }).default('UTC');
export const DeliveryNoteRequest = z.object({
  id: Id,
  format: z.enum(['pdf', 'xlsx']).default('pdf'),
  timeZone: NoteZone,
});
export type DeliveryNoteRequest = z.infer<typeof DeliveryNoteRequest>;
export const LinkDeliveryNoteRequest = z.object({
  token: LinkToken,
  format: z.enum(['pdf', 'xlsx']).default('pdf'),
  timeZone: NoteZone,
});
export type LinkDeliveryNoteRequest = z.infer<typeof LinkDeliveryNoteRequest>;

/** An address as the order keeps it (a copy taken when the order is saved). */
export interface DeliveryAddressView {
  name: string;
  contact: string;
  phone: string;
  region: string;
  address: string;
  lng: number | null;
  lat: number | null;
}

/** An excursion: a run of readings of one sensor outside the allowed range. */
export interface DeliveryExcursion {
  serial: string;
  channel: number;
  start: number;
  end: number;
  /** The reading farthest outside the range. */
  peak: number;
}

/** A stretch of the trip without readings from a sensor. */
export interface DeliveryGap {
  serial: string;
  channel: number;
  start: number;
  end: number;
}

/** The figures a receiver decides by (temperature sensors of every monitor, the trip's window only). */
export interface DeliverySummary {
  min: number | null;
  max: number | null;
  mkt: number | null;
  /** The longest time any one sensor spent outside the range, in minutes. */
  minutesOutOfRange: number;
  excursions: number;
  excursionList: DeliveryExcursion[];
  gaps: DeliveryGap[];
  readings: number;
}

/** One sensor's readings within the trip's window. */
export interface DeliverySensorSeries {
  channel: number;
  name: string;
  type: string;
  unit: string;
  /** [epoch ms, value] in time order. */
  points: Array<[number, number]>;
}

/** A position a monitor reported during the trip (epoch ms, WGS-84 degrees). */
export interface DeliveryRoutePoint {
  ts: number;
  lat: number;
  lng: number;
}

/** A monitor travelling with the shipment: its live state and the trip's readings. */
export interface DeliveryMonitorView {
  deviceId: string;
  serial: string;
  name: string;
  /** Latest position; null when the logger has no GPS. */
  lng: number | null;
  lat: number | null;
  lastSeen: number | null;
  sensors: DeliverySensorSeries[];
  /**
   * The recorded track within departure..arrival (now while in transit), in time order, thinned
   * to at most 500 points; empty when the logger sent no position in the window. Optional for
   * callers built before it existed; the server always sends it.
   */
  route?: DeliveryRoutePoint[];
}

export interface DeliveryReceiptView {
  accepted: boolean;
  time: number;
  remarks: string;
  photo: string;
  /** Who signed: the member's name (signature password) or the name a link receiver typed. */
  signedBy: string;
  /**
   * `password`: a member signed with the signature password (company audit signature on);
   * `account`: a member received it signed in, the company asking no signature; `drawn`: a link.
   */
  method: 'password' | 'account' | 'drawn';
}

/** One delivery order, as the list shows it. */
export interface DeliveryListItem {
  id: string;
  orderNo: string;
  state: DeliveryState;
  sender: DeliveryAddressView;
  receiver: DeliveryAddressView;
  senderCompany: string;
  goods: DeliveryGoods[];
  tempMin: number;
  tempMax: number;
  serials: string[];
  carrier: string;
  vehicle: string;
  plannedDeparture: number | null;
  plannedArrival: number | null;
  departTime: number | null;
  arriveTime: number | null;
  createTime: number;
}

/** `/api/logistics/deliveryDetail`: the order, its monitors' readings in the window and the summary. */
export interface DeliveryDetail extends DeliveryListItem {
  humidityMin: number | null;
  humidityMax: number | null;
  remarks: string;
  /** The receiving company on the platform, by name; null when the receiver is outside it. */
  receiverCompany: string | null;
  monitors: DeliveryMonitorView[];
  summary: DeliverySummary;
  receipt: DeliveryReceiptView | null;
  /** What the caller may do: the sender's dispatcher or the receiving company. */
  role: 'sender' | 'receiver' | 'link';
}

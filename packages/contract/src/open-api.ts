import { z } from 'zod';
import { AlarmEndReasons, type AlarmRecordView, AlarmTypes } from './alarms';
import type { HistoryData } from './devices';
import { EpochMs } from './rules';

const Id = z.coerce.string().regex(/^[1-9]\d{0,15}$/, { error: 'rule.id' });

/** A company's open-API keys at most (revoked ones do not count). */
export const OPEN_API_MAX_KEYS = 20;
/** Devices one key may be opened to at most (`OpenDevice`). */
export const OPEN_API_MAX_DEVICES = 5_000;
/** A request's timestamp may be this far from the server's clock (API.md "Open API"). */
export const OPEN_API_CLOCK_SKEW_MS = 5 * 60_000;
/** A nonce is remembered this long; the same nonce again inside it is refused. */
export const OPEN_API_NONCE_TTL_MS = 10 * 60_000;

/** `/api/openApi/createKey`: a named key; the answer holds the secret this once. */
export const CreateOpenApiKeyRequest = z.object({
  name: z.string().trim().min(2, { error: 'rule.keyName' }).max(50, { error: 'rule.keyName' }),
});
export type CreateOpenApiKeyRequest = z.infer<typeof CreateOpenApiKeyRequest>;

export interface CreatedOpenApiKey {
  id: string;
  appKey: string;
  /** Shown this once; the server keeps it encrypted and never answers it again. */
  appSecret: string;
}

export const OpenApiKeyIdRequest = z.object({ id: Id });
export type OpenApiKeyIdRequest = z.infer<typeof OpenApiKeyIdRequest>;

export const PageOpenApiKeysRequest = z.object({
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type PageOpenApiKeysRequest = z.infer<typeof PageOpenApiKeysRequest>;

/** `/api/openApi/setDevices`: the devices this key may read, replacing the previous list. */
export const SetOpenApiKeyDevicesRequest = z.object({
  id: Id,
  deviceIds: z.array(Id).max(OPEN_API_MAX_DEVICES, { error: 'rule.openDevices' }),
});
export type SetOpenApiKeyDevicesRequest = z.infer<typeof SetOpenApiKeyDevicesRequest>;

export const OpenApiKeyStates = ['active', 'revoked'] as const;
export type OpenApiKeyState = (typeof OpenApiKeyStates)[number];

export interface OpenApiKeyView {
  id: string;
  name: string;
  appKey: string;
  state: OpenApiKeyState;
  deviceIds: string[];
  createdBy: string;
  createTime: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
  /** Calls in the last 24 hours. */
  callsToday: number;
}

/** `/api/openApi/pageUsage`: a key's usage log, newest first. */
export const PageOpenApiUsageRequest = z.object({
  id: Id,
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type PageOpenApiUsageRequest = z.infer<typeof PageOpenApiUsageRequest>;

export interface OpenApiUsageView {
  id: string;
  time: number;
  method: string;
  path: string;
  httpStatus: number;
  msgCode: number;
  durationMs: number;
  ip: string;
}

/** Query of `GET /open/v1/devices`. */
export const OpenDevicesQuery = z.object({
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
});
export type OpenDevicesQuery = z.infer<typeof OpenDevicesQuery>;

/** Query of `GET /open/v1/sensors/{sensorId}/readings`: as `historyData`. */
export const OpenReadingsQuery = z
  .object({
    startTime: EpochMs,
    endTime: EpochMs,
    maxPoints: z.coerce.number().int().min(2).max(100_000).optional(),
  })
  .refine((r) => r.endTime > r.startTime, { error: 'rule.timeRange', path: ['endTime'] });
export type OpenReadingsQuery = z.infer<typeof OpenReadingsQuery>;

export const OpenSensorParams = z.object({ sensorId: Id });

/** Query of `GET /open/v1/alarms`: as `pageAlarms`, limited to the key's devices. */
export const OpenAlarmsQuery = z
  .object({
    pageNum: z.coerce.number().int().min(1).default(1),
    pageSize: z.coerce.number().int().min(1).max(200).default(20),
    startTime: EpochMs.optional(),
    endTime: EpochMs.optional(),
  })
  .refine((r) => r.startTime === undefined || r.endTime === undefined || r.endTime > r.startTime, {
    error: 'rule.timeRange',
    path: ['endTime'],
  });
export type OpenAlarmsQuery = z.infer<typeof OpenAlarmsQuery>;

/*
 * The answers of the `/open/v1` calls as zod schemas: they describe the `data` of each answer in
 * the OpenAPI document (apps/server/src/plugins/openapi-document-open.ts) and are never used to
 * check or shape an answer, so the server's output stays exactly as it is.
 */

const WireId = z.string().meta({ description: 'Decimal id, as a string (ids may exceed 2^53)' });
const EpochMsOut = z.number().int().meta({ description: 'Epoch milliseconds' });

/** A page of a list (API.md "Lists"), as `Page<T>`. */
function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    list: z.array(item),
    total: z.number().int().meta({ description: 'Items matching, over all pages' }),
    pageNum: z.number().int(),
    pageSize: z.number().int(),
  });
}

/** A sensor (channel) of `GET /open/v1/devices`, with its latest reading. */
export const OpenSensorView = z.object({
  id: WireId,
  channel: z.number().int(),
  name: z.string(),
  type: z.string().meta({ description: 'Quantity measured, e.g. temperature, humidity' }),
  unit: z.string(),
  value: z.number().nullable().meta({ description: 'Latest reading; null before the first' }),
  updateTime: EpochMsOut.nullable().meta({ description: 'Time of the latest reading (epoch ms)' }),
});
export type OpenSensorView = z.infer<typeof OpenSensorView>;

/** A device of `GET /open/v1/devices`. */
export const OpenDeviceView = z.object({
  id: WireId,
  serial: z.string(),
  name: z.string(),
  state: z.number().int().meta({
    description: '1 normal, 2 alarm, 3 abnormal, 4 offline, 5 in service, 6 disposed',
  }),
  sensors: z.array(OpenSensorView),
});
export type OpenDeviceView = z.infer<typeof OpenDeviceView>;

export const OpenDevicesPage = pageOf(OpenDeviceView);
export type OpenDevicesPage = z.infer<typeof OpenDevicesPage>;

/** `GET /open/v1/sensors/{sensorId}/readings`: the console's `HistoryData`. */
export const OpenReadingsView = z.object({
  points: z.array(z.tuple([EpochMsOut, z.number()])).meta({
    description: '[time in epoch ms, value] pairs, oldest first',
  }),
  min: z.number().nullable(),
  max: z.number().nullable(),
  avg: z.number().nullable(),
  mkt: z.number().nullable().meta({ description: 'Mean kinetic temperature; null for other quantities' }),
});
export type OpenReadingsView = z.infer<typeof OpenReadingsView>;

/** An alarm record of `GET /open/v1/alarms`: the console's `AlarmRecordView`. */
export const OpenAlarmRecord = z.object({
  id: WireId,
  deviceId: WireId,
  deviceSerial: z.string(),
  deviceName: z.string(),
  sensorId: WireId.nullable(),
  channelName: z.string().nullable(),
  settingId: WireId.nullable(),
  alarmType: z.enum(AlarmTypes),
  level: z.number().int(),
  alarmTime: EpochMsOut,
  content: z.object({ cn: z.string(), en: z.string() }),
  count: z.number().int(),
  lastValue: z.number().nullable().meta({ description: 'The latest reading of the excursion' }),
  peakValue: z.number().nullable().optional(),
  lateBySeconds: z.number().nullable().optional().meta({
    description: 'Found in late data: seconds between the reading and its arrival; null when live',
  }),
  resolveState: z.number().int().meta({
    description: '1 pending, 2 in progress, 3 resolved, 4 expired, 5 normalized',
  }),
  resolverId: WireId.nullable(),
  resolverName: z.string().nullable().optional(),
  resolveTime: EpochMsOut.nullable(),
  resolveType: z.string().nullable(),
  cause: z.string().nullable(),
  action: z.string().nullable(),
  endTime: EpochMsOut.nullable(),
  endReason: z.enum(AlarmEndReasons).nullable().optional(),
  endedById: WireId.nullable().optional(),
  endedByName: z.string().nullable().optional(),
});
export type OpenAlarmRecord = z.infer<typeof OpenAlarmRecord>;

export const OpenAlarmsPage = pageOf(OpenAlarmRecord);
export type OpenAlarmsPage = z.infer<typeof OpenAlarmsPage>;

/**
 * Compile-time check that the console answers these calls pass on fit the documented shapes:
 * a field added to `HistoryData` or `AlarmRecordView` needs its place in the schemas above.
 */
export type OpenAnswersFit = [
  Fits<HistoryData, OpenReadingsView>,
  Fits<OpenReadingsView, HistoryData>,
  NoneLeft<Exclude<keyof HistoryData, keyof OpenReadingsView>>,
  Fits<AlarmRecordView, OpenAlarmRecord>,
  Fits<OpenAlarmRecord, AlarmRecordView>,
  // Assignability allows extra fields: a field of the console's view missing here fails this.
  NoneLeft<Exclude<keyof AlarmRecordView, keyof OpenAlarmRecord>>,
];
type Fits<A extends B, B> = [A, B];
type NoneLeft<K extends never> = K;

/**
 * The text an open-API request signs (API.md "Open API"): method, path with its query string,
 * timestamp, nonce and body, joined by line feeds (the body is empty for `GET`).
 */
export function openApiSigningText(
  method: string,
  pathWithQuery: string,
  timestamp: string,
  nonce: string,
  body: string,
): string {
  return `${method.toUpperCase()}\n${pathWithQuery}\n${timestamp}\n${nonce}\n${body}`;
}

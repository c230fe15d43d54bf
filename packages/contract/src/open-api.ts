import { z } from 'zod';
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

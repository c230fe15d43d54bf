/**
 * The response envelope of spec section 8 and API.md. Every JSON answer of `/api/...` has this
 * shape with HTTP 200; transport faults keep their HTTP status (see HttpFault).
 */
export interface Envelope<T = unknown> {
  msgCode: number;
  msgContent: string;
  data: T;
}

export const MsgCode = {
  /** Success: `data` holds the result. */
  Ok: 200,
  /** Already logged on: the console marks the user as logged in and goes to `/`. */
  LoggedOn: 300,
  /** The password must be changed: `data.accessToken` holds the new token. */
  PasswordChangeRequired: 301,
  /** Login expired, or the token is missing or unknown. */
  LoginExpired: 311,
  /** Business or validation error: `msgContent` names the field, in the request's language. */
  Failed: 500,
} as const;
export type MsgCode = (typeof MsgCode)[keyof typeof MsgCode];

/** HTTP statuses the server uses for transport faults only (API.md). */
export const HttpFault = {
  MalformedRequest: 400,
  NotFound: 404,
  PayloadTooLarge: 413,
  RateLimited: 429,
} as const;

/** A page of a list (API.md "Lists"). */
export interface Page<T> {
  list: T[];
  total: number;
  pageNum: number;
  pageSize: number;
}

import { MsgCode } from '@coldchain/contract';
import type { MessageKey } from '../i18n/messages';

/** Codes whose msgCode is not the generic 500 (spec section 8). */
const msgCodeOf: Partial<Record<MessageKey, number>> = {
  LOGIN_EXPIRED: MsgCode.LoginExpired,
  PASSWORD_CHANGE_FIRST: MsgCode.PasswordChangeRequired,
  // An open-API request whose signature does not hold: HTTP 401 with msgCode 311 (API.md "Open API").
  OPEN_API_UNSIGNED: MsgCode.LoginExpired,
  OPEN_API_BAD_KEY: MsgCode.LoginExpired,
  OPEN_API_BAD_TIMESTAMP: MsgCode.LoginExpired,
  OPEN_API_BAD_NONCE: MsgCode.LoginExpired,
  OPEN_API_BAD_SIGNATURE: MsgCode.LoginExpired,
  OPEN_API_NONCE_USED: MsgCode.LoginExpired,
};

/**
 * The one error type of the server. `code` is stable (tests and clients may rely on it); the
 * text a person reads comes from the i18n catalogue in the request's language, and the mapping to
 * the envelope's msgCode lives here and in the error handler, nowhere else.
 */
export class AppError extends Error {
  readonly msgCode: number;
  constructor(
    readonly code: MessageKey,
    readonly params: Record<string, string | number> = {},
    /** A transport fault keeps its HTTP status (400, 404, 413, 429); business errors stay on 200. */
    readonly httpStatus = 200,
  ) {
    super(code);
    this.name = 'AppError';
    this.msgCode = msgCodeOf[code] ?? (httpStatus === 200 ? MsgCode.Failed : httpStatus);
  }
}

/**
 * True when an error says the database cannot be reached or cannot work right now (connection
 * lost, server shutting down, out of resources), as opposed to an error caused by the data of a
 * statement. Drivers and Drizzle wrap errors, so the whole cause chain is read.
 */
const UNAVAILABLE_SQLSTATE_CLASSES = ['08', '53', '57', '58'];
const UNAVAILABLE_NODE_CODES = [
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
];

export function isStorageUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (UNAVAILABLE_NODE_CODES.includes(code)) return true;
      if (/^[0-9A-Z]{5}$/.test(code) && UNAVAILABLE_SQLSTATE_CLASSES.includes(code.slice(0, 2))) return true;
    }
    const message = (e as { message?: unknown }).message;
    if (
      typeof message === 'string' &&
      /connection terminated|database (is )?closed|pglite is closed/i.test(message)
    )
      return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** SQLSTATE classes of errors caused by a statement's data: 22 data exception, 23 constraint. */
const DATA_SQLSTATE_CLASSES = ['22', '23'];

/** True when the database refused the data itself: writing the same message again fails again. */
export function isRefusedData(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (
      typeof code === 'string' &&
      /^[0-9A-Z]{5}$/.test(code) &&
      DATA_SQLSTATE_CLASSES.includes(code.slice(0, 2))
    )
      return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * A message the database refused on its own, in a transaction of its own: it can never be
 * stored, so the device is told why (HTTP 400, the MQTT error topic) instead of resending it
 * forever. The payload checks should catch every such value first; this is the last line.
 */
export class UnstorableMessage extends Error {
  constructor(cause: unknown) {
    const detail =
      cause instanceof Error ? (cause.cause instanceof Error ? cause.cause.message : cause.message) : '';
    super(`payload: the database refused it (${detail.slice(0, 200)}); nothing of this message was stored`, {
      cause,
    });
  }
}

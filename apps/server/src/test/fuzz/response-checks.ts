import { MsgCode } from '@coldchain/contract';

/*
 * What every answer must satisfy whatever was sent (API.md): no server fault, no internal detail,
 * and on `/api` the envelope with the HTTP statuses kept for transport faults.
 */

/** HTTP statuses an `/api` call may answer (API.md): 200, or a transport fault. */
const API_STATUSES = new Set([200, 400, 404, 413, 429]);
/** msgCodes of an HTTP 200 envelope (spec section 8). */
const API_MSG_CODES = new Set<number>([
  MsgCode.Ok,
  MsgCode.Failed,
  MsgCode.LoginExpired,
  MsgCode.PasswordChangeRequired,
  300,
]);
/** Statuses of the device protocol (API.md): stored, bad payload, credentials, unknown serial, too large. */
const DEVICE_STATUSES = new Set([200, 400, 401, 404, 413, 429]);

/**
 * Signs of internals in a body: stack frames, source paths, database and runtime error texts.
 * The fuzz never sends these words, so an echo of its own input cannot match.
 */
const INTERNAL_DETAIL: readonly [string, RegExp][] = [
  ['stack frame', /\bat (?:async )?\S+ \(|\bat (?:file:|node:|\/)\S+:\d+:\d+/],
  ['source path', /node_modules|\/work\/|\/src\/\S+\.[tj]s\b|\.ts:\d+/],
  ['runtime error', /\b(?:TypeError|ReferenceError|RangeError|SyntaxError|ZodError)\b/],
  ['undefined access', /Cannot read propert|is not a function|is not iterable|undefined is not/],
  [
    'database error',
    /violates .* constraint|duplicate key value|invalid input syntax|out of range for type|value too long for type|invalid byte sequence|unterminated|relation "|column "|syntax error at|index row size|PGlite|drizzle|Failed query/i,
  ],
];

export function internalDetail(text: string): string | undefined {
  for (const [name, pattern] of INTERNAL_DETAIL) {
    const match = pattern.exec(text);
    if (match) return `${name}: …${text.slice(Math.max(0, match.index - 40), match.index + 80)}…`;
  }
  return undefined;
}

export interface Answer {
  status: number;
  contentType: string;
  body: string;
}

/** Problems of one `/api` answer; an empty list is a good answer. */
export function checkApiAnswer(answer: Answer): string[] {
  const problems: string[] = [];
  if (answer.status >= 500) problems.push(`HTTP ${answer.status}`);
  else if (!API_STATUSES.has(answer.status))
    problems.push(`HTTP ${answer.status} is not a status API.md allows`);
  const detail = internalDetail(answer.body);
  if (detail) problems.push(`internal detail in the body (${detail})`);
  // A file (an export) is the raw file; everything else is the envelope.
  if (!answer.contentType.includes('application/json')) {
    if (answer.status !== 200)
      problems.push(`HTTP ${answer.status} answered with ${answer.contentType || 'no type'}`);
    return problems;
  }
  let envelope: unknown;
  try {
    envelope = JSON.parse(answer.body);
  } catch {
    return [...problems, 'JSON content type with a body that is not JSON'];
  }
  const e = envelope as Record<string, unknown>;
  const keys = e && typeof e === 'object' && !Array.isArray(e) ? Object.keys(e).sort().join(',') : '';
  if (keys !== 'data,msgCode,msgContent') {
    problems.push(`not the envelope: ${answer.body.slice(0, 120)}`);
    return problems;
  }
  if (typeof e.msgCode !== 'number' || typeof e.msgContent !== 'string')
    problems.push('envelope field types');
  if (answer.status === 200 && !API_MSG_CODES.has(e.msgCode as number))
    problems.push(`msgCode ${e.msgCode} on HTTP 200`);
  if (answer.status !== 200 && e.msgCode !== answer.status)
    problems.push(`msgCode ${e.msgCode} on HTTP ${answer.status}`);
  if (e.msgCode !== MsgCode.Ok && typeof e.msgContent === 'string' && e.msgContent.trim() === '')
    problems.push('an error without a message');
  return problems;
}

/** Problems of one answer of `POST /device/v1/up` or `/event`. */
export function checkDeviceAnswer(answer: Answer): string[] {
  const problems: string[] = [];
  if (answer.status >= 500) problems.push(`HTTP ${answer.status}`);
  else if (!DEVICE_STATUSES.has(answer.status))
    problems.push(`HTTP ${answer.status} is not a device protocol status`);
  const detail = internalDetail(answer.body);
  if (detail) problems.push(`internal detail in the body (${detail})`);
  return problems;
}

// Before the contract's schemas are built: zod must not probe for eval under the CSP.
import '../zod-without-eval';
import { Header, Limits, MsgCode, Platform, toWireLanguage } from '@coldchain/contract';
import i18n from '../i18n';
import { clearSession, getAccessToken, getCompanyId, setAccessToken } from '../session/storage';
import { guardRepeatedChange } from './double-click-guard';

/**
 * The one API client of the console: every call goes through `request`, which applies the
 * envelope rules and HTTP error texts of spec section 8 in this file only.
 */

export type NotifyType = 'success' | 'error' | 'warning' | 'info';
export interface Notice {
  type: NotifyType;
  content: string;
  /** Seconds. */
  duration: number;
}

export interface RequestHooks {
  navigate: (to: string) => void;
  notify: (notice: Notice) => void;
  /** Path + query the user is on, for `/login?redirect=`. */
  currentPath: () => string;
  /** Called after the wrapper ended the session (311), so cached server state is dropped too. */
  onSessionEnded: () => void;
  /** Called on msgCode 300 ("mark the user as logged on"). */
  onLoggedOn: () => void;
}

const defaultHooks: RequestHooks = {
  navigate: (to) => window.location.assign(to),
  notify: () => {},
  currentPath: () => window.location.pathname + window.location.search,
  onSessionEnded: () => {},
  onLoggedOn: () => {},
};
let hooks: RequestHooks = { ...defaultHooks };

/** The app injects router navigation and antd toasts; tests inject spies. */
export function configureRequest(next: Partial<RequestHooks>): void {
  hooks = { ...hooks, ...next };
}

export function resetRequestHooks(): void {
  hooks = { ...defaultHooks };
}

/** Rejection of every failed call. `shown` says the user already saw a message for it. */
export class RequestError extends Error {
  constructor(
    message: string,
    readonly path: string,
    readonly msgCode?: number,
    readonly status?: number,
    readonly shown = true,
  ) {
    super(message);
    this.name = 'RequestError';
  }
}

export interface FileResponse {
  blob: Blob;
  filename: string;
}

/** The invite-join call answers 500 with a message the page treats as done (spec section 8). */
export const INVITE_JOIN_PATH = '/api/userOrganize/inviteJoinOrganize';
/** The one call whose success returns the whole envelope. */
const WHOLE_BODY_PATHS = ['/api/device/insertDeviceZJJK'];

const HTTP_TEXT_KEYS: Record<number, string> = {
  400: 'request.http400',
  404: 'request.http404',
  408: 'request.http408',
  429: 'request.http429',
  500: 'request.http500',
  501: 'request.http501',
  502: 'request.http502',
  503: 'request.http503',
  504: 'request.http504',
  505: 'request.http505',
};

function buildHeaders(): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    [Header.Language]: toWireLanguage(i18n.language),
    [Header.Platform]: String(Platform.Web),
  };
  const token = getAccessToken();
  if (token) headers[Header.AccessToken] = token;
  const companyId = getCompanyId();
  if (companyId) headers[Header.CompanyId] = companyId;
  return headers;
}

function showError(content: string): void {
  hooks.notify({ type: 'error', content, duration: Limits.errorToastSeconds });
}

function loginRedirect(): string {
  const current = hooks.currentPath();
  // Already on the login page: keep its own redirect instead of nesting one in another.
  if (current.startsWith('/login')) return current;
  return `/login?redirect=${encodeURIComponent(current)}`;
}

export function filenameFrom(disposition: string | null): string {
  if (!disposition) return 'download';
  const star = /filename\*=(?:UTF-8'')?([^;]+)/i.exec(disposition);
  if (star?.[1]) return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
  const plain = /filename=("?)([^";]+)\1/i.exec(disposition);
  return plain?.[2]?.trim() ?? 'download';
}

interface EnvelopeLike {
  msgCode: number;
  msgContent?: string;
  data?: unknown;
}

function isEnvelope(body: unknown): body is EnvelopeLike {
  return typeof body === 'object' && body !== null && 'msgCode' in body;
}

/** POSTs `body` as JSON to `path` and resolves with what spec section 8 says the caller gets. */
export async function request<T = unknown>(path: string, body: unknown = {}): Promise<T> {
  const init = { method: 'POST', headers: buildHeaders(), body: JSON.stringify(body) };
  // A second click within the guard's second gets the first click's answer (double-click-guard.ts).
  return guardRepeatedChange(path, `${getCompanyId() ?? ''}|${init.body}`, () => send<T>(path, init));
}

/**
 * POSTs one file as multipart field `file` (`/api/file/upload` answers `{ url }`), with the same
 * headers (the browser sets the multipart Content-Type) and the same answer rules as `request`.
 */
export async function uploadFile<T = { url: string }>(
  path: string,
  file: Blob,
  filename?: string,
  /** Extra form fields, e.g. `{ purpose: 'avatar' }` for the server's size and type limits. */
  fields: Record<string, string> = {},
): Promise<T> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', file, filename ?? (file instanceof File ? file.name : 'file'));
  const { 'Content-Type': _json, ...headers } = buildHeaders();
  return send<T>(path, { method: 'POST', headers, body: form });
}

async function send<T>(path: string, init: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, init);
  } catch {
    const text = i18n.t('request.network');
    showError(text);
    throw new RequestError(text, path, undefined, undefined, true);
  }

  if (!response.ok) {
    // Transport faults: the status decides the text, whatever the body says.
    const key = HTTP_TEXT_KEYS[response.status];
    const text = key ? i18n.t(key, { path }) : i18n.t('request.httpOther', { status: response.status });
    showError(text);
    throw new RequestError(text, path, undefined, response.status);
  }

  const contentType = response.headers.get('Content-Type') ?? '';
  if (!contentType.includes('json')) {
    const file: FileResponse = {
      blob: await response.blob(),
      filename: filenameFrom(response.headers.get('Content-Disposition')),
    };
    return file as T;
  }

  const payload: unknown = await response.json();
  if (!isEnvelope(payload)) return payload as T;
  return applyEnvelope<T>(path, payload);
}

function applyEnvelope<T>(path: string, envelope: EnvelopeLike): T {
  const message = envelope.msgContent ?? '';
  switch (envelope.msgCode) {
    case MsgCode.Ok:
      return (WHOLE_BODY_PATHS.includes(path) ? envelope : envelope.data) as T;
    case MsgCode.PasswordChangeRequired: {
      hooks.notify({ type: 'warning', content: message, duration: Limits.errorToastSeconds });
      const token = (envelope.data as { accessToken?: unknown } | null)?.accessToken;
      if (typeof token === 'string' && token) setAccessToken(token);
      hooks.navigate('/updatePassword');
      throw new RequestError(message, path, envelope.msgCode);
    }
    case MsgCode.Failed:
      showError(message);
      if (path === INVITE_JOIN_PATH) return true as T;
      throw new RequestError(message, path, envelope.msgCode);
    case MsgCode.LoginExpired: {
      const target = loginRedirect();
      clearSession();
      hooks.onSessionEnded();
      const silent = path === INVITE_JOIN_PATH;
      if (!silent) showError(message);
      hooks.navigate(target);
      throw new RequestError(message, path, envelope.msgCode, undefined, !silent);
    }
    case MsgCode.LoggedOn:
      hooks.onLoggedOn();
      hooks.navigate('/');
      return envelope.data as T;
    default: {
      const text = i18n.t('request.withPath', { message, path });
      showError(text);
      throw new RequestError(text, path, envelope.msgCode);
    }
  }
}

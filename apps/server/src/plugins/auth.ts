import { toWireLanguage, type WireLanguage } from '@coldchain/contract';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/client';
import type { MessageKey } from '../i18n/messages';
import { AppError } from '../lib/app-error';
import { idFromWire } from '../lib/ids';
import { hashToken } from '../lib/tokens';
import type { Actor } from '../modules/audit/audit.service';
import { AuthCache, type AuthCacheOptions } from '../modules/auth/auth-cache';
import { authChanges } from '../modules/auth/auth-changes';
import { type PgAuthRelay, startAuthRelay } from '../modules/auth/auth-relay';
import {
  type CallerMembership,
  callerDependsOn,
  loadSessionCaller,
  type SessionCaller,
  serviceTagsAt,
} from '../modules/auth/session-caller';
import { PASSWORD_CHANGE_CALLS } from '../modules/auth/session-scope';
import { headerLanguage, rememberLanguage } from '../modules/users/user-language';
import { sessions } from '../modules/users/users.table';

/** Who is calling, established from the verified token and membership, never from the body. */
export interface Auth {
  userId: number;
  sessionId: number;
  /** The company in scope: the `companyId` header if the caller belongs to it, else the last used one. */
  companyId: number | null;
  /** Company administrator: every right over the whole company. */
  isAdmin: boolean;
  legalPerson: boolean;
  departmentId: number | null;
  /** Path of the caller's department (`/1/5/`): they see it and everything below; null = whole company. */
  scopePath: string | null;
  roleId: number | null;
  /** Holds the department administrator role (or is company administrator). */
  isDepartmentAdmin: boolean;
  authTags: ReadonlySet<string>;
  serviceTags: ReadonlySet<string>;
  /** Platform operator (modules/operator/operator-guard.ts): not a right in any company. */
  isOperator?: boolean;
  /** The session may only change the password (renewal due, msgCode 301; modules/auth). */
  passwordChangeOnly?: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    language: WireLanguage;
    /** Set for every route that is not `config.public`. */
    auth: Auth;
  }
  interface FastifyInstance {
    /** `METHOD /api/...` -> what the route requires; filled by `recordRoutePermissions`. */
    routePermissions: ReadonlyMap<string, RoutePermission>;
    /** Callers by token hash, dropped on every change reported to modules/auth/auth-changes.ts. */
    callerCache: CallerCache;
  }
  interface FastifyContextConfig {
    /** The route needs no login (login itself, client configuration, health). */
    public?: boolean;
  }
}

/** Sliding expiry is written at most once a minute, so a busy console does not write on every call. */
const TOUCH_INTERVAL_MS = 60_000;

/** The cache of callers by token hash (modules/auth/auth-cache.ts, docs/decisions.md "Caller cache"). */
export type CallerCache = AuthCache<SessionCaller>;

export function createCallerCache(
  options: Omit<AuthCacheOptions, 'bus'> = CALLER_CACHE_DEFAULTS,
): CallerCache {
  return new AuthCache(callerDependsOn, options);
}

/**
 * A change applies at once in this process and, on PostgreSQL, in the others through LISTEN/NOTIFY
 * (modules/auth/auth-relay.ts). Five seconds bounds the staleness when a notification is lost.
 */
export const CALLER_CACHE_DEFAULTS = { ttlMs: 5_000, settleMs: 2_000 };

export async function resolveAuth(
  db: Db,
  token: string | undefined,
  companyHeader: string | undefined,
  sessionIdleMs: number,
  /** The raw `language` header: when it differs from the user's stored language, it is stored. */
  languageHeader?: string,
  /** Without one (the live socket's binding), the caller is read from the database. */
  cache?: CallerCache,
): Promise<Auth> {
  if (!token) throw new AppError('LOGIN_EXPIRED');
  const now = Date.now();
  const tokenHash = hashToken(token);
  const load = () => loadSessionCaller(db, tokenHash, now);
  const caller = cache ? await cache.get(tokenHash, load) : await load();
  if (!caller || caller.disabled || caller.expiresAt <= now) {
    if (caller) cache?.forget(tokenHash);
    throw new AppError('LOGIN_EXPIRED');
  }
  await touchSession(db, caller, now, sessionIdleMs);
  const language = headerLanguage(languageHeader);
  if (language !== null && language !== caller.language) {
    await rememberLanguage(db, caller.userId, caller.language, languageHeader);
    caller.language = language;
  }
  return authIn(caller, companyHeader, now);
}

/**
 * Slides the session's expiry, in the database at most once a minute: a restart loses at most
 * that minute of sliding, never the session. The cached caller is updated with it.
 */
async function touchSession(db: Db, caller: SessionCaller, now: number, sessionIdleMs: number) {
  if (now - caller.lastSeenAt <= TOUCH_INTERVAL_MS) return;
  const lastSeenAt = caller.lastSeenAt;
  // Concurrent requests of the session see the touch as done and do not write it again.
  caller.lastSeenAt = now;
  try {
    await db
      .update(sessions)
      .set({ lastSeenAt: new Date(now), expiresAt: new Date(now + sessionIdleMs) })
      .where(eq(sessions.id, caller.sessionId));
  } catch (error) {
    caller.lastSeenAt = lastSeenAt;
    throw error;
  }
  caller.expiresAt = now + sessionIdleMs;
}

/** The request's view of a caller: the company the header names (it must be theirs), else the last used one. */
function authIn(caller: SessionCaller, companyHeader: string | undefined, now: number): Auth {
  let membership: CallerMembership | undefined;
  if (companyHeader !== undefined && companyHeader !== '') {
    const wanted = idFromWire(companyHeader);
    membership = caller.memberships.find((m) => m.companyId === wanted);
    // A foreign company id gets "no permission", never foreign data (API.md).
    if (!membership) throw new AppError('NO_PERMISSION');
  } else {
    membership =
      caller.memberships.find((m) => m.companyId === caller.lastCompanyId) ?? caller.memberships[0];
  }
  const access = membership?.access;
  return {
    userId: caller.userId,
    sessionId: caller.sessionId,
    companyId: membership?.companyId ?? null,
    isAdmin: membership?.isAdmin ?? false,
    legalPerson: membership?.legalPerson ?? false,
    departmentId: access?.departmentId ?? null,
    scopePath: access?.scopePath ?? null,
    roleId: access?.roleId ?? null,
    isDepartmentAdmin: access?.isDepartmentAdmin ?? false,
    authTags: access?.authTags ?? NO_TAGS,
    serviceTags: membership ? serviceTagsAt(membership, now) : NO_TAGS,
    isOperator: caller.isOperator,
    passwordChangeOnly: caller.passwordChangeOnly,
  };
}

const NO_TAGS: ReadonlySet<string> = new Set();

/** The route tag of operator-only calls (modules/operator/operator-guard.ts). */
export const OPERATOR_TAG = 'operator';

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Reads the spec's headers on every request: `language` picks the message language; for every
 * `/api` route that is not public, `accessToken` must name a live session (else msgCode 311) and
 * `companyId`, when sent, must be one of the caller's companies.
 */
export function registerAuth(app: FastifyInstance, db: Db, sessionIdleMs: number) {
  const callers = createCallerCache();
  app.decorate('callerCache', callers);
  let relay: PgAuthRelay | null = null;
  app.addHook('onReady', async () => {
    relay = await startAuthRelay(app.database, authChanges, app.log);
  });
  app.addHook('onClose', async () => {
    callers.close();
    if (relay) {
      authChanges.dropRelay(relay);
      await relay.close();
    }
  });
  app.decorateRequest('language', 'en');
  app.decorateRequest('auth', null as unknown as Auth);
  app.addHook('onRequest', async (request) => {
    request.language = toWireLanguage(header(request, 'language'));
  });
  app.addHook('preValidation', async (request) => {
    const url = request.routeOptions.url;
    if (!url?.startsWith('/api/') || request.routeOptions.config.public) return;
    request.auth = await resolveAuth(
      db,
      header(request, 'accessToken'),
      header(request, 'companyId'),
      sessionIdleMs,
      header(request, 'language'),
      callers,
    );
    if (request.auth.passwordChangeOnly && !PASSWORD_CHANGE_CALLS.has(url)) {
      throw new AppError('PASSWORD_CHANGE_FIRST');
    }
    // The route's tags are checked here too, before the body is validated, so that a caller
    // without the right learns nothing about the call, not even which fields it takes.
    const route = app.routePermissions?.get(`${request.method} ${url}`);
    const required = route?.tags ?? [];
    // The platform tag `operator` is the user's flag, never a company right (contract PlatformTags).
    const holds = (tag: string) =>
      tag === OPERATOR_TAG ? request.auth.isOperator === true : request.auth.authTags.has(tag);
    if (required.some((tag) => !holds(tag))) {
      throw new AppError(route?.refusal ?? 'NO_PERMISSION');
    }
    // So are its supplier services (modules/companies/service-gate.ts), with the spec's words.
    if (route?.services?.some((service) => !request.auth.serviceTags.has(service))) {
      throw new AppError('NO_PERMISSION');
    }
  });
}

/** For calls that act inside a company: the company in scope, or an error if the user has none. */
export function requireCompany(auth: Auth): number {
  if (auth.companyId === null) throw new AppError('COMPANY_NOT_SELECTED');
  return auth.companyId;
}

/** A preHandler made by `requirePermission`: it carries its tag so the route table can be read. */
export type PermissionCheck = ((request: FastifyRequest) => Promise<void>) & {
  permissionTag: string;
  /** The message of a refusal when the spec names one (top-up: "Cannot top up without permission"). */
  refusal?: MessageKey;
};

/** A preHandler that admits only callers holding `tag` in the company in scope. */
export function requirePermission(tag: string): PermissionCheck {
  const check = async (request: FastifyRequest) => {
    if (!request.auth.authTags.has(tag)) throw new AppError('NO_PERMISSION');
  };
  return Object.assign(check, { permissionTag: tag });
}

/** What the route table says about one call: public, or the tags its preHandlers require. */
export interface RoutePermission {
  method: string;
  url: string;
  public: boolean;
  tags: string[];
  /** The zod schema of the body, when the route declares one (the matrix tests build bodies from it). */
  body: unknown;
  /** The refusal message when it is not the generic "no permission" (see PermissionCheck). */
  refusal?: MessageKey;
  /** Supplier services the call needs (modules/companies/service-gate.ts `requireService`). */
  services?: string[];
}

/** The tags required by a route's preHandlers (one function or a list of them). */
function permissionTagsOf(preHandler: unknown): string[] {
  const handlers = Array.isArray(preHandler) ? preHandler : preHandler ? [preHandler] : [];
  return handlers
    .map((h) => (h as Partial<PermissionCheck>).permissionTag)
    .filter((tag): tag is string => typeof tag === 'string');
}

/** The supplier services a route's preHandlers require (they carry `serviceTag`). */
function serviceTagsOf(preHandler: unknown): string[] {
  const handlers = Array.isArray(preHandler) ? preHandler : preHandler ? [preHandler] : [];
  return handlers
    .map((h) => (h as { serviceTag?: unknown }).serviceTag)
    .filter((tag): tag is string => typeof tag === 'string');
}

function refusalOf(preHandler: unknown): MessageKey | undefined {
  const handlers = Array.isArray(preHandler) ? preHandler : preHandler ? [preHandler] : [];
  return handlers.map((h) => (h as Partial<PermissionCheck>).refusal).find((r) => r !== undefined);
}

/**
 * Records every `/api` route with what it requires, as `app.routePermissions`, so that the
 * permission matrix test walks the real route table and a new call cannot escape it.
 */
export function recordRoutePermissions(app: FastifyInstance) {
  const registry = new Map<string, RoutePermission>();
  app.decorate('routePermissions', registry);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      registry.set(`${method} ${route.url}`, {
        method,
        url: route.url,
        public: Boolean((route.config as { public?: boolean } | undefined)?.public),
        tags: permissionTagsOf(route.preHandler),
        refusal: refusalOf(route.preHandler),
        services: serviceTagsOf(route.preHandler),
        body: (route.schema as { body?: unknown } | undefined)?.body,
      });
    }
  });
}

/** The acting user for audited changes in the company in scope. */
export function actorOf(request: FastifyRequest): Actor {
  return { companyId: requireCompany(request.auth), userId: request.auth.userId, ip: request.ip ?? '' };
}

import { toWireLanguage, type WireLanguage } from '@coldchain/contract';
import { and, eq, gt } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/client';
import type { MessageKey } from '../i18n/messages';
import { AppError } from '../lib/app-error';
import { idFromWire } from '../lib/ids';
import { hashToken } from '../lib/tokens';
import type { Actor } from '../modules/audit/audit.service';
import { PASSWORD_CHANGE_CALLS } from '../modules/auth/session-scope';
import { companies, companyMembers } from '../modules/companies/companies.table';
import { loadMemberAccess } from '../modules/org/access';
import { rememberLanguage } from '../modules/users/user-language';
import { sessions, users } from '../modules/users/users.table';

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
  }
  interface FastifyContextConfig {
    /** The route needs no login (login itself, client configuration, health). */
    public?: boolean;
  }
}

/** Sliding expiry is written at most once a minute, so a busy console does not write on every call. */
const TOUCH_INTERVAL_MS = 60_000;

export async function resolveAuth(
  db: Db,
  token: string | undefined,
  companyHeader: string | undefined,
  sessionIdleMs: number,
  /** The raw `language` header: when it differs from the user's stored language, it is stored. */
  languageHeader?: string,
): Promise<Auth> {
  if (!token) throw new AppError('LOGIN_EXPIRED');
  const now = new Date();
  const [row] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, hashToken(token)), gt(sessions.expiresAt, now)))
    .limit(1);
  if (!row || row.user.disabled) throw new AppError('LOGIN_EXPIRED');

  if (now.getTime() - row.session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    await db
      .update(sessions)
      .set({ lastSeenAt: now, expiresAt: new Date(now.getTime() + sessionIdleMs) })
      .where(eq(sessions.id, row.session.id));
  }

  await rememberLanguage(db, row.user.id, row.user.language, languageHeader);

  const memberships = await db
    .select({ member: companyMembers, services: companies.services })
    .from(companyMembers)
    .innerJoin(companies, eq(companies.id, companyMembers.companyId))
    .where(eq(companyMembers.userId, row.user.id));

  let membership: (typeof memberships)[number] | undefined;
  if (companyHeader !== undefined && companyHeader !== '') {
    const wanted = idFromWire(companyHeader);
    membership = memberships.find((m) => m.member.companyId === wanted);
    // A foreign company id gets "no permission", never foreign data (API.md).
    if (!membership) throw new AppError('NO_PERMISSION');
  } else {
    membership = memberships.find((m) => m.member.companyId === row.user.lastCompanyId) ?? memberships[0];
  }

  const access = membership ? await loadMemberAccess(db, membership.member) : null;
  return {
    userId: row.user.id,
    sessionId: row.session.id,
    companyId: membership?.member.companyId ?? null,
    isAdmin: membership?.member.isAdmin ?? false,
    legalPerson: membership?.member.legalPerson ?? false,
    departmentId: access?.departmentId ?? null,
    scopePath: access?.scopePath ?? null,
    roleId: access?.roleId ?? null,
    isDepartmentAdmin: access?.isDepartmentAdmin ?? false,
    authTags: access?.authTags ?? new Set(),
    serviceTags: new Set(membership?.services ?? []),
    passwordChangeOnly: row.session.scope === 'passwordChange',
  };
}

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
    );
    if (request.auth.passwordChangeOnly && !PASSWORD_CHANGE_CALLS.has(url)) {
      throw new AppError('PASSWORD_CHANGE_FIRST');
    }
    // The route's tags are checked here too, before the body is validated, so that a caller
    // without the right learns nothing about the call, not even which fields it takes.
    const route = app.routePermissions?.get(`${request.method} ${url}`);
    const required = route?.tags ?? [];
    if (required.some((tag) => !request.auth.authTags.has(tag))) {
      throw new AppError(route?.refusal ?? 'NO_PERMISSION');
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
}

/** The tags required by a route's preHandlers (one function or a list of them). */
function permissionTagsOf(preHandler: unknown): string[] {
  const handlers = Array.isArray(preHandler) ? preHandler : preHandler ? [preHandler] : [];
  return handlers
    .map((h) => (h as Partial<PermissionCheck>).permissionTag)
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
        body: (route.schema as { body?: unknown } | undefined)?.body,
      });
    }
  });
}

/** The acting user for audited changes in the company in scope. */
export function actorOf(request: FastifyRequest): Actor {
  return { companyId: requireCompany(request.auth), userId: request.auth.userId, ip: request.ip ?? '' };
}

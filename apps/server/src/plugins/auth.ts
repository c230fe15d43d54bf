import { toWireLanguage, type WireLanguage } from '@coldchain/contract';
import { and, eq, gt } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/client';
import { AppError } from '../lib/app-error';
import { idFromWire } from '../lib/ids';
import { hashToken } from '../lib/tokens';
import type { Actor } from '../modules/audit/audit.service';
import { companies, companyMembers } from '../modules/companies/companies.table';
import { loadMemberAccess } from '../modules/org/access';
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
}

declare module 'fastify' {
  interface FastifyRequest {
    language: WireLanguage;
    /** Set for every route that is not `config.public`. */
    auth: Auth;
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
    );
  });
}

/** For calls that act inside a company: the company in scope, or an error if the user has none. */
export function requireCompany(auth: Auth): number {
  if (auth.companyId === null) throw new AppError('COMPANY_NOT_SELECTED');
  return auth.companyId;
}

/** A preHandler that admits only callers holding `tag` in the company in scope. */
export function requirePermission(tag: string) {
  return async (request: FastifyRequest) => {
    if (!request.auth.authTags.has(tag)) throw new AppError('NO_PERMISSION');
  };
}

/** The acting user for audited changes in the company in scope. */
export function actorOf(request: FastifyRequest): Actor {
  return { companyId: requireCompany(request.auth), userId: request.auth.userId, ip: request.ip ?? '' };
}

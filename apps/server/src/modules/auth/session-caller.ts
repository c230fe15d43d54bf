import type { WireLanguage } from '@coldchain/contract';
import { sql } from 'drizzle-orm';
import { type Queryable, queryRows } from '../../db/client';
import { plannedOnce } from '../../db/planned-once';
import { companies, companyMembers } from '../companies/companies.table';
import { type MemberAccess, memberAccessOf } from '../org/access';
import { departments, roles } from '../org/org.table';
import { sessions, users } from '../users/users.table';
import type { AuthChange } from './auth-changes';

/** One of the caller's companies, with their rights there. */
export interface CallerMembership {
  companyId: number;
  isAdmin: boolean;
  legalPerson: boolean;
  access: MemberAccess;
  serviceTags: ReadonlySet<string>;
  /** The end (epoch ms) of each service that has one: `serviceTagsAt` drops it from then on. */
  serviceEnds: ReadonlyMap<string, number>;
}

/**
 * The membership's services that are on at `nowMs`. A cached caller may outlive a service's end,
 * so the end is checked on every request, not only when the caller is read (no job, no delay).
 */
export function serviceTagsAt(membership: CallerMembership, nowMs: number): ReadonlySet<string> {
  if (membership.serviceEnds.size === 0) return membership.serviceTags;
  return new Set(
    [...membership.serviceTags].filter((tag) => (membership.serviceEnds.get(tag) ?? Infinity) > nowMs),
  );
}

/**
 * Everything the auth plugin needs about a token, for every company of its user: what the
 * request's `companyId` header picks from is here, so one cached value serves every company.
 * `lastSeenAt`, `expiresAt` and `language` are kept in step by the plugin when it writes them.
 */
export interface SessionCaller {
  sessionId: number;
  userId: number;
  passwordChangeOnly: boolean;
  lastSeenAt: number;
  expiresAt: number;
  disabled: boolean;
  /** Platform operator (users.is_operator): the operator console (modules/operator). */
  isOperator: boolean;
  language: WireLanguage;
  lastCompanyId: number | null;
  /** Oldest membership first (the company in scope when the last used one is gone). */
  memberships: CallerMembership[];
}

interface MembershipRow {
  companyId: number;
  isAdmin: boolean;
  legalPerson: boolean;
  departmentId: number | null;
  roleId: number | null;
  services: string[];
  serviceExpiry: Record<string, string>;
  /** Null when the member's department is not found in their company. */
  departmentPath: string | null;
  departmentParentId: number | null;
  roleTags: string[] | null;
  roleIsDepartmentAdmin: boolean | null;
}

interface CallerRow {
  sessionId: number;
  userId: number;
  scope: string;
  lastSeenAt: number;
  expiresAt: number;
  disabled: boolean;
  isOperator: boolean;
  language: WireLanguage;
  lastCompanyId: number | null;
  memberships: MembershipRow[];
}

const epochMs = (column: unknown) => sql`(extract(epoch from ${column}) * 1000)::float8`;

/**
 * The company's enabled services (`c.services`) without those whose end (`c.service_expiry`, an
 * ISO instant per tag) has passed at `nowMs`: an expired service is off from that moment on.
 */
const liveServices = (nowMs: number) => sql`array(select tag from unnest(c.services) as tag
  where (c.service_expiry ->> tag) is null
     or (c.service_expiry ->> tag)::timestamptz > to_timestamp(${nowMs}::float8 / 1000))`;

/**
 * The session of `tokenHash` if it is live at `nowMs`, with its user and all their memberships,
 * departments and roles, in one statement (it used to be four, on every request). Only the columns
 * needed: the password hash stays in the database.
 */
export async function loadSessionCaller(
  db: Queryable,
  tokenHash: string,
  nowMs: number,
): Promise<SessionCaller | null> {
  const [row] = await queryRows<{ caller: CallerRow | string }>(
    db,
    plannedOnce(sql`select json_build_object(
        'sessionId', s.id, 'userId', s.user_id, 'scope', s.scope,
        'lastSeenAt', ${epochMs(sql`s.last_seen_at`)}, 'expiresAt', ${epochMs(sql`s.expires_at`)},
        'disabled', u.disabled, 'isOperator', u.is_operator, 'language', u.language, 'lastCompanyId', u.last_company_id,
        'memberships', coalesce((
          select json_agg(json_build_object(
              'companyId', m.company_id, 'isAdmin', m.is_admin, 'legalPerson', m.legal_person,
              'departmentId', m.department_id, 'roleId', m.role_id, 'services', ${liveServices(nowMs)},
              'serviceExpiry', c.service_expiry,
              'departmentPath', d.path, 'departmentParentId', d.parent_id,
              'roleTags', r.tags, 'roleIsDepartmentAdmin', r.is_department_admin)
            order by m.joined_at, m.company_id)
          from ${companyMembers} m
          join ${companies} c on c.id = m.company_id
          left join ${departments} d on d.id = m.department_id and d.company_id = m.company_id
          left join ${roles} r on r.id = m.role_id and r.company_id = m.company_id
          where m.user_id = s.user_id and not c.disabled), '[]'::json)) as caller
      from ${sessions} s join ${users} u on u.id = s.user_id
      where s.token_hash = ${tokenHash} and s.expires_at > to_timestamp(${nowMs}::float8 / 1000)
      limit 1`),
  );
  if (!row) return null;
  const caller: CallerRow = typeof row.caller === 'string' ? JSON.parse(row.caller) : row.caller;
  return {
    sessionId: caller.sessionId,
    userId: caller.userId,
    passwordChangeOnly: caller.scope === 'passwordChange',
    lastSeenAt: caller.lastSeenAt,
    expiresAt: caller.expiresAt,
    disabled: caller.disabled,
    isOperator: caller.isOperator,
    language: caller.language,
    lastCompanyId: caller.lastCompanyId,
    memberships: caller.memberships.map((m) => ({
      companyId: m.companyId,
      isAdmin: m.isAdmin,
      legalPerson: m.legalPerson,
      serviceTags: new Set(m.services),
      serviceEnds: new Map(
        Object.entries(m.serviceExpiry ?? {}).map(([tag, end]) => [tag, Date.parse(end)] as const),
      ),
      access: memberAccessOf(
        m,
        m.departmentPath === null ? null : { path: m.departmentPath, parentId: m.departmentParentId },
        m.roleTags === null
          ? null
          : { tags: m.roleTags, isDepartmentAdmin: m.roleIsDepartmentAdmin ?? false },
      ),
    })),
  };
}

/** Whether a change (auth-changes.ts) may alter what `caller` holds. */
export function callerDependsOn(caller: SessionCaller, change: AuthChange): boolean {
  if ('sessionId' in change) return caller.sessionId === change.sessionId;
  if ('userId' in change) return caller.userId === change.userId;
  if ('everyone' in change) return true;
  return caller.memberships.some((m) => m.companyId === change.companyId);
}

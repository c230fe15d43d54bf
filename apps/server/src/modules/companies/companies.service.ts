import type { UserCompany, UserPowers } from '@coldchain/contract';
import {
  buildMenuEntries,
  DEFAULT_COMPANY_SERVICES,
  MENU_TREE,
  OPERATOR_MENU_TREE,
} from '@coldchain/contract';
import { eq, sql } from 'drizzle-orm';
import { type Db, type Queryable, queryRows } from '../../db/client';
import { plannedOnce } from '../../db/planned-once';
import { AppError } from '../../lib/app-error';
import { ok } from '../../lib/envelope';
import { idFromWire, idToWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { recordAudit } from '../audit/audit.service';
import { authChanged } from '../auth/auth-changes';
import { grantCredit } from '../delivery/credits.service';
import { setUpCompanyOrganisation } from '../org/company-setup';
import { users } from '../users/users.table';
import { companies, companyMembers } from './companies.table';

interface UserCompanyRow {
  id: number | string;
  name: string;
  industry: string;
  region: string;
  address: string;
  is_admin: boolean;
  legal_person: boolean;
  other_admins: number;
}

/**
 * The caller's companies, by name (a company disabled by the supplier is left out, as the session
 * leaves it out); one statement, prepared once (the console asks on every page
 * load). `other_admins` is for the leave action: the last administrator may not leave (leaveCompany).
 */
export async function listUserCompanies(db: Db, auth: Auth): Promise<UserCompany[]> {
  const rows = await queryRows<UserCompanyRow>(
    db,
    plannedOnce(sql`select c.id, c.name, c.industry, c.region, c.address, m.is_admin, m.legal_person,
        (select count(*)::int from ${companyMembers} o
          where o.company_id = m.company_id and o.is_admin and o.user_id <> m.user_id) as other_admins
      from ${companyMembers} m join ${companies} c on c.id = m.company_id
      where m.user_id = ${auth.userId}::bigint and not c.disabled
      order by c.name, c.id`),
  );
  return rows.map((row) => {
    const id = Number(row.id);
    return {
      id: idToWire(id),
      name: row.name,
      industry: row.industry,
      region: row.region,
      address: row.address,
      isAdmin: row.is_admin,
      current: id === auth.companyId,
      legalPerson: row.legal_person,
      onlyAdmin: row.is_admin && Number(row.other_admins) === 0,
    };
  });
}

/** Makes `id` the user's current company; it is restored at the next login. */
export async function switchUserCompany(db: Db, auth: Auth, id: string): Promise<void> {
  const companyId = idFromWire(id);
  const [membership] = companyId
    ? await db
        .select({ companyId: companyMembers.companyId })
        .from(companyMembers)
        .where(eq(companyMembers.userId, auth.userId))
        .then((rows) => rows.filter((r) => r.companyId === companyId))
    : [];
  if (!membership) throw new AppError('NO_PERMISSION');
  await db.update(users).set({ lastCompanyId: membership.companyId }).where(eq(users.id, auth.userId));
  authChanged({ userId: auth.userId });
}

/**
 * `getUserPowers`'s whole answer as JSON text, kept while the caller's tag sets are the same
 * objects: the caller cache (plugins/auth.ts) gives every request of a session the same sets
 * until a change that affects them reloads the caller with new ones (a role's tags, a
 * department, a service switched, a removal: the invalidations its tests cover), so a new set is
 * a new answer, and a set nobody holds any more lets its answer go. Service tags with an end date
 * are a new set at each request (`serviceTagsAt`), so those answers are made each time. Only the
 * tags and the operator flag decide the answer. The console asks for it on every page load; the
 * menu tree's walk and the answer's serialisation were two thirds of the call's CPU.
 */
const powersAnswers = new WeakMap<ReadonlySet<string>, WeakMap<ReadonlySet<string>, Map<boolean, string>>>();

export function userPowersJson(auth: Auth): string {
  let byServices = powersAnswers.get(auth.authTags);
  if (!byServices) {
    byServices = new WeakMap();
    powersAnswers.set(auth.authTags, byServices);
  }
  let byOperator = byServices.get(auth.serviceTags);
  if (!byOperator) {
    byOperator = new Map();
    byServices.set(auth.serviceTags, byOperator);
  }
  const operator = auth.isOperator === true;
  let json = byOperator.get(operator);
  if (json === undefined) {
    json = JSON.stringify(ok(getUserPowers(auth)));
    byOperator.set(operator, json);
  }
  return json;
}

/** The menus, rights and services of the caller in the company in scope (spec section 6). */
export function getUserPowers(auth: Auth): UserPowers {
  return {
    // A platform operator also gets the operator area, after the company's own menus.
    menus: buildMenuEntries(
      auth.authTags,
      auth.serviceTags,
      auth.isOperator === true ? [...MENU_TREE, ...OPERATOR_MENU_TREE] : MENU_TREE,
    ),
    authTags: [...auth.authTags].sort(),
    serviceAuthTags: [...auth.serviceTags].sort(),
  };
}

export interface NewCompany {
  name: string;
  industry?: string;
  region?: string;
  address?: string;
  services?: string[];
}

/** Creates a company with `userId` as its administrator and legal person. */
export async function createCompanyWithAdmin(
  db: Queryable,
  userId: number,
  input: NewCompany,
): Promise<number> {
  const [company] = await db
    .insert(companies)
    .values({
      name: input.name,
      industry: input.industry ?? '',
      region: input.region ?? '',
      address: input.address ?? '',
      services: input.services ?? [...DEFAULT_COMPANY_SERVICES],
    })
    .returning({ id: companies.id });
  const { departmentId, roleId } = await setUpCompanyOrganisation(db, company!.id, input.name, userId);
  await db
    .insert(companyMembers)
    .values({ companyId: company!.id, userId, isAdmin: true, legalPerson: true, departmentId, roleId });
  authChanged({ userId });
  return company!.id;
}

/**
 * A signed-in user founds a company: they become its administrator and it becomes their current
 * one. It starts with `starterCredits` of message credit: alarm e-mails and SMS cost credit, and
 * a company that cannot top up yet must not find its first alarms silenced (issue 22).
 */
export async function createCompanyForUser(
  db: Db,
  userId: number,
  ip: string,
  input: NewCompany & { starterCredits: number },
): Promise<{ id: string }> {
  return db.transaction(async (tx) => {
    const companyId = await createCompanyWithAdmin(tx, userId, input);
    if (input.starterCredits > 0) await grantCredit(tx, companyId, input.starterCredits, 'starter credit');
    await tx.update(users).set({ lastCompanyId: companyId }).where(eq(users.id, userId));
    await recordAudit(
      tx,
      { companyId, userId, ip },
      {
        action: 'company.create',
        targetType: 'company',
        targetId: companyId,
        after: {
          name: input.name,
          industry: input.industry ?? '',
          region: input.region ?? '',
          address: input.address ?? '',
        },
      },
    );
    return { id: idToWire(companyId) };
  });
}

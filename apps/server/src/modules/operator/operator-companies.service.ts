import type {
  CompanyServiceView,
  GrantCreditsRequest,
  OperatorCompanyView,
  Page,
  PageOperatorCompaniesRequest,
  SetCompanyServicesRequest,
} from '@coldchain/contract';
import { eq, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client';
import { pageOf, whenGiven } from '../../db/page-query';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import { type Actor, recordAudit } from '../audit/audit.service';
import { authChanged } from '../auth/auth-changes';
import { companies, companyMembers } from '../companies/companies.table';
import { grantCredit } from '../delivery/credits.service';
import { companyCredits } from '../delivery/delivery.table';
import { devices } from '../devices/devices.table';

/** The operator acting: their user id and address; the company is the one acted on. */
export type OperatorActor = Omit<Actor, 'companyId'>;

interface CompanyRaw {
  id: number;
  name: string;
  industry: string;
  region: string;
  address: string;
  disabled: boolean;
  createdMs: number;
  services: string[];
  serviceExpiry: Record<string, string>;
  supportMs: number | null;
  members: number;
  devices: number;
  credits: number;
}

const epochMs = (column: unknown) => sql`(extract(epoch from ${column}) * 1000)::float8`;

const COMPANY_ROW = sql`json_build_object(
  'id', ${companies.id}, 'name', ${companies.name}, 'industry', ${companies.industry},
  'region', ${companies.region}, 'address', ${companies.address}, 'disabled', ${companies.disabled},
  'createdMs', ${epochMs(companies.createdAt)}, 'services', ${companies.services},
  'serviceExpiry', ${companies.serviceExpiry}, 'supportMs', ${epochMs(companies.supportAccessUntil)},
  'members', (select count(*) from ${companyMembers} m where m.company_id = ${companies.id}),
  'devices', (select count(*) from ${devices} d where d.company_id = ${companies.id}),
  'credits', coalesce((select cc.balance from ${companyCredits} cc where cc.company_id = ${companies.id}), 0))`;

/** A company's services with their expiry, and whether each is on at `now`. */
export function servicesOf(
  services: readonly string[],
  expiry: Record<string, string>,
  now = Date.now(),
): CompanyServiceView[] {
  return [...services].sort().map((tag) => {
    const end = expiry[tag] ? Date.parse(expiry[tag]) : null;
    return { tag, expireTime: end, active: end === null || end > now };
  });
}

function present(raw: CompanyRaw): OperatorCompanyView {
  return {
    id: idToWire(raw.id),
    name: raw.name,
    industry: raw.industry,
    region: raw.region,
    address: raw.address,
    disabled: raw.disabled,
    createTime: Math.round(raw.createdMs),
    memberCount: Number(raw.members),
    deviceCount: Number(raw.devices),
    credits: Number(raw.credits),
    services: servicesOf(raw.services, raw.serviceExpiry ?? {}),
    supportAccessUntil: raw.supportMs === null ? null : Math.round(raw.supportMs),
  };
}

/** Every company on the platform, by name (a part of it, any case), newest first. */
export function pageOperatorCompanies(
  db: Db,
  query: PageOperatorCompaniesRequest,
): Promise<Page<OperatorCompanyView>> {
  const keyword = query.keyword ? `%${query.keyword.replace(/[\\%_]/g, '\\$&')}%` : null;
  return pageOf(
    db,
    {
      row: COMPANY_ROW,
      from: companies,
      where: whenGiven(keyword, 'text', (p) => sql`${companies.name} ilike ${p}`),
      orderBy: sql`${companies.createdAt} desc, ${companies.id} desc`,
    },
    query,
    present,
  );
}

export async function operatorCompanyDetail(db: Queryable, id: string): Promise<OperatorCompanyView> {
  const page = await pageOf(
    db,
    {
      row: COMPANY_ROW,
      from: companies,
      where: sql`${companies.id} = ${companyIdOf(id)}::bigint`,
      orderBy: sql`${companies.id}`,
    },
    { pageNum: 1, pageSize: 1 },
    present,
  );
  const company = page.list[0];
  if (!company) throw new AppError('COMPANY_NOT_FOUND');
  return company;
}

/** A wire company id; an id that cannot be one is a company that does not exist. */
export function companyIdOf(id: string): number {
  const companyId = idFromWire(id);
  if (companyId === null) throw new AppError('COMPANY_NOT_FOUND');
  return companyId;
}

/** The company row locked for the change, or "the company does not exist". */
async function lockCompany(tx: Queryable, id: string) {
  const [row] = await tx
    .select()
    .from(companies)
    .where(eq(companies.id, companyIdOf(id)))
    .for('update');
  if (!row) throw new AppError('COMPANY_NOT_FOUND');
  return row;
}

/**
 * Replaces the company's services: the listed tags are on (until their expiry, when given), the
 * others off. Audited in the company's own chain, so the company sees what its supplier changed.
 */
export async function setCompanyServices(
  db: Db,
  actor: OperatorActor,
  input: SetCompanyServicesRequest,
  now = Date.now(),
): Promise<OperatorCompanyView> {
  const tags = [...new Set(input.services.map((s) => s.tag))].sort();
  const expiry: Record<string, string> = {};
  for (const service of input.services) {
    if (service.expireTime === null || service.expireTime === undefined) continue;
    if (service.expireTime <= now) throw new AppError('SERVICE_EXPIRY_PAST');
    expiry[service.tag] = new Date(service.expireTime).toISOString();
  }
  await db.transaction(async (tx) => {
    const before = await lockCompany(tx, input.id);
    await tx
      .update(companies)
      .set({ services: tags, serviceExpiry: expiry })
      .where(eq(companies.id, before.id));
    await recordAudit(
      tx,
      { companyId: before.id, ...actor },
      {
        action: 'operator.setServices',
        targetType: 'company',
        targetId: before.id,
        before: { services: before.services, expiry: before.serviceExpiry },
        after: { services: tags, expiry },
      },
    );
    authChanged({ companyId: before.id });
  });
  return operatorCompanyDetail(db, input.id);
}

/** Gives the company message credit (a `grant` in its ledger), audited with the reason. */
export async function grantCompanyCredits(
  db: Db,
  actor: OperatorActor,
  input: GrantCreditsRequest,
): Promise<OperatorCompanyView> {
  await db.transaction(async (tx) => {
    const company = await lockCompany(tx, input.id);
    await grantCredit(tx, company.id, input.amount, input.note);
    await recordAudit(
      tx,
      { companyId: company.id, ...actor },
      {
        action: 'operator.grantCredits',
        targetType: 'company',
        targetId: company.id,
        after: { amount: input.amount },
        reason: input.note,
      },
    );
  });
  return operatorCompanyDetail(db, input.id);
}

/**
 * Disables or enables a company. A disabled company drops out of its members' sessions at once
 * (modules/auth/session-caller.ts): they no longer reach it, its data stays.
 */
export async function setCompanyDisabled(
  db: Db,
  actor: OperatorActor,
  id: string,
  disabled: boolean,
): Promise<OperatorCompanyView> {
  await db.transaction(async (tx) => {
    const company = await lockCompany(tx, id);
    if (company.disabled === disabled) return;
    await tx.update(companies).set({ disabled }).where(eq(companies.id, company.id));
    await recordAudit(
      tx,
      { companyId: company.id, ...actor },
      {
        action: disabled ? 'operator.disableCompany' : 'operator.enableCompany',
        targetType: 'company',
        targetId: company.id,
        before: { disabled: company.disabled },
        after: { disabled },
      },
    );
    // Members of a disabled company no longer hold it, so their sessions are found by user.
    const members = await tx
      .select({ userId: companyMembers.userId })
      .from(companyMembers)
      .where(eq(companyMembers.companyId, company.id));
    for (const member of members) authChanged({ userId: member.userId });
  });
  return operatorCompanyDetail(db, id);
}

import type { ChangeOrganizeNameRequest, CompanyDataInfo } from '@coldchain/contract';
import { and, asc, count, eq, gte, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { alarmRecords, alarmSettings } from '../alarms/alarms.table';
import { type Actor, recordAudit } from '../audit/audit.service';
import { devices } from '../devices/devices.table';
import { NoticeState, notices } from '../notices/notices.table';
import { departmentScope, deviceIdsWhere, visibleDevices } from '../org/access';
import { departments, devicePermissions } from '../org/org.table';
import { users } from '../users/users.table';
import { companies, companyMembers } from './companies.table';

/**
 * Spec section 3: the company administrator renames the company (its root department follows)
 * and, when given, changes its industry and location; fields not sent stay as they are.
 */
export async function renameCompany(db: Db, auth: Auth, actor: Actor, input: ChangeOrganizeNameRequest) {
  if (!auth.isAdmin) throw new AppError('COMPANY_ADMIN_ONLY');
  const { name, ...details } = input;
  const changes = Object.fromEntries(Object.entries(details).filter(([, v]) => v !== undefined));
  await db.transaction(async (tx) => {
    const [before] = await tx
      .select({
        name: companies.name,
        industry: companies.industry,
        region: companies.region,
        address: companies.address,
      })
      .from(companies)
      .where(eq(companies.id, actor.companyId));
    await tx
      .update(companies)
      .set({ name, ...changes })
      .where(eq(companies.id, actor.companyId));
    await tx
      .update(departments)
      .set({ name })
      .where(and(eq(departments.companyId, actor.companyId), isNull(departments.parentId)));
    const touched = ['name', ...Object.keys(changes)] as (keyof NonNullable<typeof before>)[];
    await recordAudit(tx, actor, {
      // A rename alone keeps its own entry; anything more is an edit of the company's information.
      action: touched.length > 1 ? 'company.edit' : 'company.rename',
      targetType: 'company',
      targetId: actor.companyId,
      before: Object.fromEntries(touched.map((k) => [k, before?.[k]])),
      after: { name, ...changes },
    });
  });
}

/**
 * The caller leaves a company. The legal person cannot, nor the last administrator (a company
 * must keep someone who can manage it). Leaving also ends their duties there: person in charge,
 * alarm notifier, device grants, pending applications and unread notices.
 */
export async function leaveCompany(db: Db, auth: Auth, ip: string, wireCompanyId: string) {
  const companyId = idFromWire(wireCompanyId);
  await db.transaction(async (tx) => {
    const [member] = companyId
      ? await tx
          .select()
          .from(companyMembers)
          .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, auth.userId)))
          .for('update')
      : [];
    if (!member || !companyId) throw new AppError('NO_PERMISSION');
    if (member.legalPerson) throw new AppError('LEAVE_LEGAL_PERSON');
    if (member.isAdmin) {
      const [others] = await tx
        .select({ n: count() })
        .from(companyMembers)
        .where(
          and(
            eq(companyMembers.companyId, companyId),
            eq(companyMembers.isAdmin, true),
            ne(companyMembers.userId, auth.userId),
          ),
        );
      if (Number(others?.n ?? 0) === 0) throw new AppError('LEAVE_LAST_ADMIN');
    }
    const userId = auth.userId;
    await tx
      .update(departments)
      .set({ leaderUserId: null })
      .where(and(eq(departments.companyId, companyId), eq(departments.leaderUserId, userId)));
    await tx
      .update(alarmSettings)
      .set({
        notifierIds: sql`array_remove(${alarmSettings.notifierIds}, ${userId}::bigint)`,
        updatedAt: new Date(),
      })
      .where(
        and(
          eq(alarmSettings.companyId, companyId),
          sql`${userId}::bigint = ANY(${alarmSettings.notifierIds})`,
        ),
      );
    await tx
      .delete(devicePermissions)
      .where(and(eq(devicePermissions.companyId, companyId), eq(devicePermissions.userId, userId)));
    await tx
      .update(notices)
      .set({ state: NoticeState.Invalid })
      .where(
        and(
          eq(notices.companyId, companyId),
          eq(notices.userId, userId),
          eq(notices.state, NoticeState.Unread),
        ),
      );
    await tx
      .delete(companyMembers)
      .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, userId)));
    // The current company moves to another membership (the oldest), or none.
    const [next] = await tx
      .select({ companyId: companyMembers.companyId })
      .from(companyMembers)
      .where(eq(companyMembers.userId, userId))
      .orderBy(asc(companyMembers.joinedAt), asc(companyMembers.companyId))
      .limit(1);
    await tx
      .update(users)
      .set({ lastCompanyId: next?.companyId ?? null })
      .where(
        and(
          eq(users.id, userId),
          sql`(${users.lastCompanyId} = ${companyId} OR ${users.lastCompanyId} IS NULL)`,
        ),
      );
    await recordAudit(
      tx,
      { companyId, userId, ip },
      {
        action: 'member.leave',
        targetType: 'user',
        targetId: userId,
        before: { departmentId: member.departmentId, roleId: member.roleId, isAdmin: member.isAdmin },
      },
    );
  });
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Midnight UTC of the day `ms` falls in: companies have no time zone yet (docs/decisions.md). */
function startOfUtcDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/**
 * The home page's figures. Device figures need `device:view` and alarm figures `alarm:view`
 * (a member without a role sees zeros rather than the company's state); both count only the
 * devices the caller may see.
 */
export async function companyDataInfo(db: Db, auth: Auth, now = Date.now()): Promise<CompanyDataInfo> {
  const companyId = auth.companyId!;
  const [company] = await db
    .select({ name: companies.name })
    .from(companies)
    .where(eq(companies.id, companyId));
  const [departmentCount] = await db.select({ n: count() }).from(departments).where(departmentScope(auth));
  const [memberCount] = await db
    .select({ n: count() })
    .from(companyMembers)
    .innerJoin(departments, eq(departments.id, companyMembers.departmentId))
    .where(and(eq(companyMembers.companyId, companyId), departmentScope(auth)));
  const deviceStates: Record<string, number> = { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0, '6': 0 };
  let deviceCount = 0;
  if (auth.authTags.has('device:view')) {
    const rows = await db
      .select({ state: devices.state, n: count() })
      .from(devices)
      .where(visibleDevices(auth))
      .groupBy(devices.state);
    for (const row of rows) {
      deviceStates[String(row.state)] = Number(row.n);
      deviceCount += Number(row.n);
    }
  }
  let alarmsToday = 0;
  let pendingAlarms = 0;
  if (auth.authTags.has('alarm:view')) {
    const mine = and(
      eq(alarmRecords.companyId, companyId),
      sql`${alarmRecords.deviceId} IN ${deviceIdsWhere(visibleDevices(auth))}`,
    );
    const [today] = await db
      .select({ n: count() })
      .from(alarmRecords)
      .where(and(mine, gte(alarmRecords.alarmTime, new Date(startOfUtcDay(now)))));
    const [pending] = await db
      .select({ n: count() })
      .from(alarmRecords)
      .where(and(mine, eq(alarmRecords.resolveState, 1)));
    alarmsToday = Number(today?.n ?? 0);
    pendingAlarms = Number(pending?.n ?? 0);
  }
  return {
    companyId: idToWire(companyId),
    companyName: company?.name ?? '',
    departmentCount: Number(departmentCount?.n ?? 0),
    memberCount: Number(memberCount?.n ?? 0),
    deviceCount,
    deviceStates,
    alarmsToday,
    pendingAlarms,
  };
}

/**
 * Alarms raised and alarms resolved per day over the last `days` days (today included), oldest
 * first, days in UTC (`YYYY-MM-DD`). Without `alarm:view` every day is zero.
 */
export async function alarmChart(db: Db, auth: Auth, days: number, now = Date.now()) {
  const first = startOfUtcDay(now) - (days - 1) * DAY_MS;
  const out = Array.from({ length: days }, (_, i) => ({
    date: new Date(first + i * DAY_MS).toISOString().slice(0, 10),
    alarms: 0,
    resolved: 0,
  }));
  if (!auth.authTags.has('alarm:view')) return { days: out };
  const byDate = new Map(out.map((d) => [d.date, d]));
  const mine = and(
    eq(alarmRecords.companyId, auth.companyId!),
    sql`${alarmRecords.deviceId} IN ${deviceIdsWhere(visibleDevices(auth))}`,
  );
  const day = (column: typeof alarmRecords.alarmTime | typeof alarmRecords.resolveTime) =>
    sql<string>`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
  const raised = await db
    .select({ date: day(alarmRecords.alarmTime), n: count() })
    .from(alarmRecords)
    .where(and(mine, gte(alarmRecords.alarmTime, new Date(first))))
    .groupBy(day(alarmRecords.alarmTime));
  const resolved = await db
    .select({ date: day(alarmRecords.resolveTime), n: count() })
    .from(alarmRecords)
    .where(and(mine, eq(alarmRecords.resolveState, 3), gte(alarmRecords.resolveTime, new Date(first))))
    .groupBy(day(alarmRecords.resolveTime));
  for (const r of raised) {
    const entry = byDate.get(r.date);
    if (entry) entry.alarms = Number(r.n);
  }
  for (const r of resolved) {
    const entry = byDate.get(r.date);
    if (entry) entry.resolved = Number(r.n);
  }
  return { days: out };
}

import {
  type IncomingAuditRequest,
  type JoinOrganizeRequest,
  type JoinRequestListRequest,
  JoinRequestState,
  type JoinRequestView,
  type Page,
} from '@coldchain/contract';
import { and, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { type Actor, recordAudit } from '../audit/audit.service';
import { authChanged } from '../auth/auth-changes';
import { companyMembers } from '../companies/companies.table';
import { createNotice } from '../notices/notices.service';
import { users } from '../users/users.table';
import { companyAdministrators, departmentScope } from './access';
import { departments, joinRequests } from './org.table';
import { departmentNoticeKind } from './org-notices';

/**
 * Who is told about an application: the person in charge of the department, else the nearest
 * department above with one, else the company administrators.
 */
async function reviewersOf(db: Queryable, department: typeof departments.$inferSelect): Promise<number[]> {
  const ancestorIds = department.path.split('/').filter(Boolean).map(Number).reverse();
  for (const id of ancestorIds) {
    const [row] = await db
      .select({ leader: departments.leaderUserId })
      .from(departments)
      .where(and(eq(departments.id, id), eq(departments.companyId, department.companyId)));
    if (row?.leader) return [row.leader];
  }
  return companyAdministrators(db, department.companyId);
}

/**
 * Spec section 4: a user applies to join a department with its 12-digit code; the person in
 * charge approves, then a role must be given.
 */
export async function applyToJoin(db: Db, userId: number, ip: string, input: JoinOrganizeRequest) {
  const [department] = await db.select().from(departments).where(eq(departments.code, input.code));
  if (!department) throw new AppError('DEPARTMENT_CODE_UNKNOWN');
  await applyToDepartment(db, userId, ip, department, { remark: input.remark });
}

/**
 * An application to join `department`, by code or through an invitation link: the reviewers are
 * told with a notice and decide with `incomingAudit`.
 */
export async function applyToDepartment(
  db: Db,
  userId: number,
  ip: string,
  department: typeof departments.$inferSelect,
  via: { remark: string; invitationId?: number },
) {
  const input = { remark: via.remark };
  const { companyId } = department;
  await db.transaction(async (tx) => {
    // Serialises applications of one user to one company, so a double click makes one request.
    await tx.execute(sql`select pg_advisory_xact_lock(${companyId}::int, ${userId}::int)`);
    const [member] = await tx
      .select({ userId: companyMembers.userId })
      .from(companyMembers)
      .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, userId)));
    if (member) throw new AppError('ALREADY_MEMBER');
    const [pending] = await tx
      .select({ id: joinRequests.id })
      .from(joinRequests)
      .where(
        and(
          eq(joinRequests.companyId, companyId),
          eq(joinRequests.userId, userId),
          eq(joinRequests.state, JoinRequestState.Pending),
        ),
      );
    if (pending) throw new AppError('JOIN_ALREADY_PENDING');
    const [request] = await tx
      .insert(joinRequests)
      .values({ companyId, departmentId: department.id, userId, remark: input.remark })
      .returning({ id: joinRequests.id });
    const [applicant] = await tx
      .select({ name: users.name, account: users.account })
      .from(users)
      .where(eq(users.id, userId));
    const who = `${applicant?.name ?? ''} (${applicant?.account ?? ''})`;
    for (const reviewer of await reviewersOf(tx, department)) {
      await createNotice(tx, {
        companyId,
        userId: reviewer,
        kind: departmentNoticeKind(department.id, 'join-request'),
        title: { en: 'New application to join', cn: '新的加入申请' },
        content: {
          en: `${who} applied to join ${department.name}.${input.remark ? ` Remarks: ${input.remark}` : ''}`,
          cn: `${who} 申请加入${department.name}。${input.remark ? `备注：${input.remark}` : ''}`,
        },
      });
    }
    await recordAudit(
      tx,
      { companyId, userId, ip },
      {
        action: 'joinRequest.apply',
        targetType: 'joinRequest',
        targetId: request!.id,
        after: { departmentId: department.id, remark: input.remark, invitationId: via.invitationId ?? null },
      },
    );
  });
}

/**
 * Departments whose applications the caller may decide: with `user:edit` every department of
 * their scope; as person in charge their own department and everything below it.
 */
function reviewableDepartments(auth: Auth): SQL {
  const led = sql`EXISTS (SELECT 1 FROM ${departments} led WHERE led.company_id = ${auth.companyId ?? -1} AND led.leader_user_id = ${auth.userId} AND ${departments.path} LIKE led.path || '%')`;
  const company = eq(departments.companyId, auth.companyId ?? -1);
  if (auth.authTags.has('user:edit')) return sql`(${departmentScope(auth)} OR (${company} AND ${led}))`;
  return and(company, led)!;
}

const inReviewable = (auth: Auth) =>
  sql`${joinRequests.departmentId} IN (SELECT ${departments.id} FROM ${departments} WHERE ${reviewableDepartments(auth)})`;

export async function listJoinRequests(
  db: Db,
  auth: Auth,
  query: JoinRequestListRequest,
): Promise<Page<JoinRequestView>> {
  const filters: SQL[] = [eq(joinRequests.companyId, auth.companyId ?? -1), inReviewable(auth)];
  if (query.departmentId) filters.push(eq(joinRequests.departmentId, idFromWire(query.departmentId) ?? -1));
  if (query.state) filters.push(eq(joinRequests.state, query.state));
  const where = and(...filters);
  const [total] = await db.select({ n: count() }).from(joinRequests).where(where);
  const rows = await db
    .select({
      request: joinRequests,
      userName: users.name,
      account: users.account,
      departmentName: departments.name,
    })
    .from(joinRequests)
    .innerJoin(users, eq(users.id, joinRequests.userId))
    .innerJoin(departments, eq(departments.id, joinRequests.departmentId))
    .where(where)
    .orderBy(joinRequests.state, desc(joinRequests.createdAt), desc(joinRequests.id))
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize);
  return {
    list: rows.map(({ request: r, userName, account, departmentName }) => ({
      id: idToWire(r.id),
      userId: idToWire(r.userId),
      userName,
      account,
      departmentId: idToWire(r.departmentId),
      departmentName,
      remark: r.remark,
      state: r.state,
      createTime: r.createdAt.getTime(),
      decidedTime: r.decidedAt?.getTime() ?? null,
    })),
    total: Number(total?.n ?? 0),
    pageNum: query.pageNum,
    pageSize: query.pageSize,
  };
}

/** Whether the caller may list or decide applications at all (`user:edit` or person in charge). */
export async function mayReviewApplications(db: Queryable, auth: Auth): Promise<boolean> {
  if (auth.authTags.has('user:edit')) return true;
  const [led] = await db
    .select({ id: departments.id })
    .from(departments)
    .where(and(eq(departments.companyId, auth.companyId ?? -1), eq(departments.leaderUserId, auth.userId)))
    .limit(1);
  return Boolean(led);
}

/**
 * Approving makes the applicant a member of the department without a role (the person in charge
 * gives one next, spec section 4); rejecting closes the application. The applicant gets a notice.
 */
export async function decideJoinRequest(db: Db, auth: Auth, actor: Actor, input: IncomingAuditRequest) {
  const id = idFromWire(input.id);
  return db.transaction(async (tx) => {
    const [row] = id
      ? await tx
          .select({ request: joinRequests, departmentName: departments.name })
          .from(joinRequests)
          .innerJoin(departments, eq(departments.id, joinRequests.departmentId))
          .where(
            and(
              eq(joinRequests.id, id),
              eq(joinRequests.companyId, auth.companyId ?? -1),
              inReviewable(auth),
            ),
          )
          .for('update', { of: joinRequests })
      : [];
    if (!row) throw new AppError('JOIN_REQUEST_NOT_FOUND');
    const { request, departmentName } = row;
    if (request.state !== JoinRequestState.Pending) throw new AppError('JOIN_ALREADY_DECIDED');
    if (input.approve) {
      const inserted = await tx
        .insert(companyMembers)
        .values({
          companyId: request.companyId,
          userId: request.userId,
          departmentId: request.departmentId,
          roleId: null,
        })
        .onConflictDoNothing()
        .returning({ userId: companyMembers.userId });
      if (inserted.length === 0) throw new AppError('APPLICANT_ALREADY_MEMBER');
      authChanged({ userId: request.userId });
      // A user without any company lands in this one at their next login.
      await tx
        .update(users)
        .set({ lastCompanyId: request.companyId })
        .where(and(eq(users.id, request.userId), sql`${users.lastCompanyId} IS NULL`));
    }
    const state = input.approve ? JoinRequestState.Approved : JoinRequestState.Rejected;
    await tx
      .update(joinRequests)
      .set({ state, decidedBy: auth.userId, decidedAt: new Date() })
      .where(eq(joinRequests.id, request.id));
    const reason = input.remark
      ? { en: ` Remarks: ${input.remark}`, cn: `备注：${input.remark}` }
      : { en: '', cn: '' };
    await createNotice(tx, {
      companyId: request.companyId,
      userId: request.userId,
      kind: input.approve ? 'org:join-approved' : 'org:join-rejected',
      title: input.approve
        ? { en: 'Application approved', cn: '加入申请已通过' }
        : { en: 'Application rejected', cn: '加入申请被拒绝' },
      content: input.approve
        ? {
            // Spec section 4's sentence, with the department it is about.
            en: `You have successfully joined the company, please wait for a role and permissions to be assigned (${departmentName}).${reason.en}`,
            cn: `您已成功加入企业，请等待分配角色和权限（${departmentName}）。${reason.cn}`,
          }
        : {
            en: `Your application to join ${departmentName} was rejected.${reason.en}`,
            cn: `您加入${departmentName}的申请未通过。${reason.cn}`,
          },
    });
    await recordAudit(tx, actor, {
      action: input.approve ? 'joinRequest.approve' : 'joinRequest.reject',
      targetType: 'joinRequest',
      targetId: request.id,
      before: { state: request.state },
      after: { state, userId: request.userId, departmentId: request.departmentId, remark: input.remark },
    });
  });
}

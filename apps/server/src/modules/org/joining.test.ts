import type { InviteInfo, InviteLink, JoinRequestView, Page } from '@coldchain/contract';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { addMember, buildCompany, buildDepartment, buildRole, buildUser, login } from '../../test/factories';
import { auditLog } from '../audit/audit.table';
import { companyMembers } from '../companies/companies.table';
import { notices } from '../notices/notices.table';
import { users } from '../users/users.table';
import { insertAdminRole } from './company-setup';
import { departments, invitations, joinRequests } from './org.table';
import { departmentNoticeKind } from './org-notices';

/** root > A > A1 and root > B; A has a person in charge without any org or user rights. */
describe('invitations and joining', () => {
  const ctx = useTestApp({ loginRateLimitPerMinute: 10_000 });
  const f = {} as {
    companyId: number;
    rootId: number;
    a: number;
    a1: number;
    b: number;
    aCode: string;
    a1Code: string;
    admin: string;
    leaderId: number;
    leader: string;
    plain: string;
    foreignAdmin: string;
  };

  async function newUser() {
    const user = await buildUser(ctx.app.db, { name: 'Applicant One' });
    return { user, token: await login(ctx.app, user.account) };
  }
  async function membership(userId: number) {
    const [row] = await ctx.app.db
      .select()
      .from(companyMembers)
      .where(and(eq(companyMembers.companyId, f.companyId), eq(companyMembers.userId, userId)));
    return row;
  }

  beforeAll(async () => {
    const db = ctx.app.db;
    const company = await buildCompany(db, { name: 'Acme Cold' });
    f.companyId = company.id;
    f.admin = await login(ctx.app, company.admin.account);
    const [root] = await db.select().from(departments).where(eq(departments.companyId, company.id));
    f.rootId = root!.id;
    const a = await buildDepartment(db, company.id, { name: 'Dept A' });
    const a1 = await buildDepartment(db, company.id, { name: 'Dept A1', parentId: a.id });
    f.a = a.id;
    f.aCode = a.code;
    f.a1 = a1.id;
    f.a1Code = a1.code;
    f.b = (await buildDepartment(db, company.id, { name: 'Dept B' })).id;
    const aAdmin = await insertAdminRole(db, company.id, f.a, ['home:view']);
    const leader = await buildUser(db, { name: 'Leader A' });
    await addMember(db, company.id, leader.id, false, { departmentId: f.a, roleId: aAdmin });
    await db.update(departments).set({ leaderUserId: leader.id }).where(eq(departments.id, f.a));
    f.leaderId = leader.id;
    f.leader = await login(ctx.app, leader.account);
    const plain = await buildUser(db);
    await addMember(db, company.id, plain.id, false, {
      departmentId: f.a,
      roleId: (await buildRole(db, company.id, f.a, ['org:view'])).id,
    });
    f.plain = await login(ctx.app, plain.account);
    const foreign = await buildCompany(db);
    f.foreignAdmin = await login(ctx.app, foreign.admin.account);
  });

  describe('invitation links', () => {
    let link: InviteLink;

    it('lets a person in charge invite to their department: 24 h, unguessable id', async () => {
      const before = Date.now();
      const { body } = await call<InviteLink>(
        ctx.app,
        '/api/userOrganize/createInvite',
        { departmentId: String(f.a) },
        { token: f.leader },
      );
      expect(body.msgCode).toBe(200);
      link = body.data;
      expect(link.id).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(link.expireTime).toBeGreaterThanOrEqual(before + 24 * 3600_000 - 1000);
      expect(link.expireTime).toBeLessThanOrEqual(Date.now() + 24 * 3600_000);
      const [audit] = await ctx.app.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.action, 'invitation.create'));
      expect(JSON.stringify(audit)).not.toContain(link.id);
    });

    it('refuses invitations without org:edit to a department one is not in charge of', async () => {
      const plain = await call(
        ctx.app,
        '/api/userOrganize/createInvite',
        { departmentId: String(f.a) },
        { token: f.plain },
      );
      expect(plain.body.msgContent).toBe('No permission for this service or operation');
      const foreign = await call(
        ctx.app,
        '/api/userOrganize/createInvite',
        { departmentId: String(f.a) },
        { token: f.foreignAdmin },
      );
      expect(foreign.body.msgContent).toBe('The department does not exist');
    });

    it('shows the landing page without login', async () => {
      const { body } = await call<InviteInfo>(ctx.app, '/api/userOrganize/getOrganizeInviteById', {
        id: link.id,
      });
      expect(body.data).toEqual({
        companyName: 'Acme Cold',
        departmentName: 'Dept A',
        inviterName: 'Leader A',
        expireTime: link.expireTime,
        valid: true,
      });
      const unknown = await call<InviteInfo>(ctx.app, '/api/userOrganize/getOrganizeInviteById', {
        id: 'nope',
      });
      expect(unknown.body.msgCode).toBe(200);
      expect(unknown.body.data.valid).toBe(false);
    });

    it("sends an application to the link's department; once approved the user joins without a role and reads the spec sentence", async () => {
      const { user, token } = await newUser();
      const { body } = await call(
        ctx.app,
        '/api/userOrganize/inviteJoinOrganize',
        { id: link.id },
        { token },
      );
      expect(body.msgContent).toBe('Application sent; please wait for the person in charge to approve it');
      // Not a member yet: a forwarded link alone lets nobody in.
      expect(await membership(user.id)).toBeUndefined();
      const [request] = await ctx.app.db.select().from(joinRequests).where(eq(joinRequests.userId, user.id));
      expect(request).toMatchObject({ departmentId: f.a, state: 1 });
      // The link has no use limit, but one pending application per person.
      const again = await call(
        ctx.app,
        '/api/userOrganize/inviteJoinOrganize',
        { id: link.id },
        { token, language: 'cn' },
      );
      expect(again.body.msgContent).toBe('您已申请加入该企业，请等待审核');
      const second = await newUser();
      const cn = await call(
        ctx.app,
        '/api/userOrganize/inviteJoinOrganize',
        { id: link.id },
        { token: second.token, language: 'cn' },
      );
      expect(cn.body.msgCode).toBe(200);
      const [secondRequest] = await ctx.app.db
        .select()
        .from(joinRequests)
        .where(eq(joinRequests.userId, second.user.id));

      // The person in charge of A approves.
      const approved = await call(
        ctx.app,
        '/api/user/incomingAudit',
        { id: String(request!.id), approve: true },
        { token: f.leader },
      );
      expect(approved.body.msgCode).toBe(200);
      expect(await membership(user.id)).toMatchObject({ departmentId: f.a, roleId: null, isAdmin: false });
      const [row] = await ctx.app.db.select().from(users).where(eq(users.id, user.id));
      expect(row!.lastCompanyId).toBe(f.companyId);
      const told = await ctx.app.db.select().from(notices).where(eq(notices.userId, user.id));
      expect(told.map((n) => n.content.en)).toEqual([
        expect.stringContaining(
          'You have successfully joined the company, please wait for a role and permissions to be assigned',
        ),
      ]);
      expect(told[0]!.content.cn).toContain('您已成功加入企业，请等待分配角色和权限');
      // A member without a role sees only the home page.
      const powers = await call<{ authTags: string[] }>(ctx.app, '/api/index/getUserPowers', {}, { token });
      expect(powers.body.data.authTags).toEqual(['home:view']);
      const member = await call(ctx.app, '/api/userOrganize/inviteJoinOrganize', { id: link.id }, { token });
      expect(member.body.msgContent).toBe('You are already a member of this company');
      const rejected = await call(
        ctx.app,
        '/api/user/incomingAudit',
        { id: String(secondRequest!.id), approve: false },
        { token: f.leader },
      );
      expect(rejected.body.msgCode).toBe(200);
      expect(await membership(second.user.id)).toBeUndefined();
    });

    it('breaks the link after 24 hours', async () => {
      await ctx.app.db
        .update(invitations)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(invitations.code, link.id));
      const info = await call<InviteInfo>(ctx.app, '/api/userOrganize/getOrganizeInviteById', {
        id: link.id,
      });
      expect(info.body.data.valid).toBe(false);
      const { user, token } = await newUser();
      const { body } = await call(
        ctx.app,
        '/api/userOrganize/inviteJoinOrganize',
        { id: link.id },
        { token },
      );
      expect(body.msgContent).toBe('Link broken');
      expect(await membership(user.id)).toBeUndefined();
    });
  });

  describe('applying with a department code', () => {
    let applicant: Awaited<ReturnType<typeof newUser>>;

    it('creates a pending application and tells the person in charge', async () => {
      applicant = await newUser();
      const { body } = await call(
        ctx.app,
        '/api/user/joinOrganize',
        { code: f.a1Code, remark: 'Night shift' },
        { token: applicant.token },
      );
      expect(body.msgContent).toBe('Application sent; please wait for the person in charge to approve it');
      const [request] = await ctx.app.db
        .select()
        .from(joinRequests)
        .where(eq(joinRequests.userId, applicant.user.id));
      expect(request).toMatchObject({ departmentId: f.a1, state: 1, remark: 'Night shift' });
      // A1 has no person in charge: the nearest one above (A's) is told.
      const told = await ctx.app.db.select().from(notices).where(eq(notices.userId, f.leaderId));
      const notice = told.find((n) => n.kind === departmentNoticeKind(f.a1, 'join-request'));
      expect(notice).toBeDefined();
      expect(notice!.content.en).toContain('Applicant One');
    });

    it('refuses a second application, an unknown code and a bad code', async () => {
      const again = await call(
        ctx.app,
        '/api/register/joinOrganization',
        { code: f.aCode },
        { token: applicant.token },
      );
      expect(again.body.msgContent).toBe(
        'You have already applied to join this company; please wait for the approval',
      );
      const unknown = await call(
        ctx.app,
        '/api/user/joinOrganize',
        { code: '000000000000' },
        { token: applicant.token },
      );
      expect(unknown.body.msgContent).toBe('No department has this department code; please check it');
      const bad = await call(
        ctx.app,
        '/api/user/joinOrganize',
        { code: '12ab' },
        { token: applicant.token, language: 'cn' },
      );
      expect(bad.body.msgContent).toBe('部门编码须为 12 位数字');
    });

    it('refuses an application from a member', async () => {
      const { body } = await call(ctx.app, '/api/user/joinOrganize', { code: f.aCode }, { token: f.plain });
      expect(body.msgContent).toBe('You are already a member of this company');
    });

    it('lists applications to the person in charge and to user:edit, not to others', async () => {
      const byLeader = await call<Page<JoinRequestView>>(
        ctx.app,
        '/api/user/joinRequestList',
        { state: 1 },
        { token: f.leader },
      );
      expect(byLeader.body.data.total).toBe(1);
      expect(byLeader.body.data.list[0]).toMatchObject({
        userId: String(applicant.user.id),
        userName: 'Applicant One',
        departmentName: 'Dept A1',
        state: 1,
        decidedTime: null,
      });
      const byAdmin = await call<Page<JoinRequestView>>(
        ctx.app,
        '/api/user/joinRequestList',
        { state: 1 },
        { token: f.admin },
      );
      expect(byAdmin.body.data.total).toBe(1);
      const byPlain = await call(ctx.app, '/api/user/joinRequestList', {}, { token: f.plain });
      expect(byPlain.body.msgContent).toBe('No permission for this service or operation');
      const byForeign = await call<Page<JoinRequestView>>(
        ctx.app,
        '/api/user/joinRequestList',
        {},
        { token: f.foreignAdmin },
      );
      expect(byForeign.body.data.total).toBe(0);
    });

    it('refuses decisions from outside: a foreign admin and a person in charge of another department', async () => {
      const [request] = await ctx.app.db
        .select()
        .from(joinRequests)
        .where(eq(joinRequests.userId, applicant.user.id));
      const foreign = await call(
        ctx.app,
        '/api/user/incomingAudit',
        { id: String(request!.id), approve: true },
        { token: f.foreignAdmin },
      );
      expect(foreign.body.msgContent).toBe('The application does not exist');
      const bLeader = await buildUser(ctx.app.db);
      await addMember(ctx.app.db, f.companyId, bLeader.id, false, { departmentId: f.b });
      await ctx.app.db.update(departments).set({ leaderUserId: bLeader.id }).where(eq(departments.id, f.b));
      const other = await call(
        ctx.app,
        '/api/user/incomingAudit',
        { id: String(request!.id), approve: true },
        { token: await login(ctx.app, bLeader.account) },
      );
      expect(other.body.msgContent).toBe('The application does not exist');
      expect(await membership(applicant.user.id)).toBeUndefined();
    });

    it('approves: member of the department without a role, applicant notified, audited', async () => {
      const [request] = await ctx.app.db
        .select()
        .from(joinRequests)
        .where(eq(joinRequests.userId, applicant.user.id));
      const { body } = await call(
        ctx.app,
        '/api/user/incomingAudit',
        { id: String(request!.id), approve: true, remark: 'Welcome' },
        { token: f.leader },
      );
      expect(body.msgContent).toBe('Approved; the new member now needs a role');
      expect(await membership(applicant.user.id)).toMatchObject({ departmentId: f.a1, roleId: null });
      const [after] = await ctx.app.db.select().from(joinRequests).where(eq(joinRequests.id, request!.id));
      expect(after).toMatchObject({ state: 2, decidedBy: f.leaderId });
      const [notice] = await ctx.app.db.select().from(notices).where(eq(notices.userId, applicant.user.id));
      expect(notice).toMatchObject({ kind: 'org:join-approved', companyId: f.companyId });
      expect(notice!.content.en).toContain('Welcome');
      const [audit] = await ctx.app.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'joinRequest.approve'), eq(auditLog.targetId, String(request!.id))));
      expect(audit).toBeDefined();
      const twice = await call(
        ctx.app,
        '/api/user/incomingAudit',
        { id: String(request!.id), approve: false },
        { token: f.leader },
      );
      expect(twice.body.msgContent).toBe('This application has already been approved or rejected');
    });

    it('rejects: state 3, no membership, applicant notified', async () => {
      const other = await newUser();
      await call(ctx.app, '/api/user/joinOrganize', { code: f.aCode }, { token: other.token });
      const [request] = await ctx.app.db
        .select()
        .from(joinRequests)
        .where(eq(joinRequests.userId, other.user.id));
      const { body } = await call(
        ctx.app,
        '/api/user/incomingAudit',
        { id: String(request!.id), approve: false },
        { token: f.admin, language: 'cn' },
      );
      expect(body.msgContent).toBe('已拒绝该申请');
      const [after] = await ctx.app.db.select().from(joinRequests).where(eq(joinRequests.id, request!.id));
      expect(after!.state).toBe(3);
      expect(await membership(other.user.id)).toBeUndefined();
      const [notice] = await ctx.app.db.select().from(notices).where(eq(notices.userId, other.user.id));
      expect(notice!.kind).toBe('org:join-rejected');
      // Rejected, they may apply again.
      const again = await call(ctx.app, '/api/user/joinOrganize', { code: f.aCode }, { token: other.token });
      expect(again.body.msgCode).toBe(200);
    });
  });
});

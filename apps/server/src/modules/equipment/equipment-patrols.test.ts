import type { Page, PatrolPlanView, PatrolRound } from '@coldchain/contract';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { addMember, buildCompany, buildDepartment, buildRole, buildUser, login } from '../../test/factories';
import { deviceGroups } from '../groups/groups.table';
import { notices } from '../notices/notices.table';
import { runReminderSweep } from '../reminders/reminder-sweep';
import { missedPatrols } from './equipment-patrol-reminders';

const HOUR = 3_600_000;

describe('patrol plans', () => {
  const ctx = useTestApp();

  async function setUp() {
    const company = await buildCompany(ctx.app.db);
    const token = await login(ctx.app, company.admin.account);
    const post = <T>(url: string, body: unknown) => call<T>(ctx.app, url, body, { token });
    const type = await post<{ id: string }>('/api/equipmentType/saveType', {
      name: 'Freezer',
      code: '41',
      attributes: [],
    });
    const saved = await post<{ id: string }>('/api/equipment/saveEquipment', {
      typeId: type.body.data.id,
      serialSuffix: '0001',
      name: 'Vaccine freezer',
    });
    await post('/api/user/setSignPassword', { password: 'Sign1234', confirmPassword: 'Sign1234' });
    const patrol = (time: number, planId?: string) =>
      post<{ id: string }>('/api/equipment/addRecord', {
        equipmentId: saved.body.data.id,
        kind: 'patrol',
        planId,
        time,
        person: 'Li',
        condition: 'normal',
        signPassword: 'Sign1234',
      });
    return { company, token, post, equipmentId: saved.body.data.id, patrol };
  }

  it('refuses an interval of 6 hours or less and a plan for another company’s equipment', async () => {
    const { post, equipmentId } = await setUp();
    const six = await post('/api/equipment/savePatrolPlan', { name: 'Daily', equipmentId, intervalHours: 6 });
    expect(six.body.msgContent).toBe(
      'Patrol interval (hours): the patrol interval must be more than 6 hours',
    );
    const none = await post('/api/equipment/savePatrolPlan', { name: 'Daily', intervalHours: 8 });
    expect(none.body.msgContent).toContain('a patrol plan is for one equipment or one group');
    const other = await setUp();
    const foreign = await other.post('/api/equipment/savePatrolPlan', {
      name: 'Daily',
      equipmentId,
      intervalHours: 8,
    });
    expect(foreign.body.msgContent).toBe('The equipment does not exist');
    const saved = await post<{ id: string }>('/api/equipment/savePatrolPlan', {
      name: 'Every 6.5 h',
      equipmentId,
      intervalHours: 6.5,
    });
    expect(saved.body.msgCode).toBe(200);
    expect(
      (await other.post('/api/equipment/deletePatrolPlan', { id: saved.body.data.id })).body.msgContent,
    ).toBe('The patrol plan does not exist');
    const rounds = await other.post('/api/equipment/pagePatrolRounds', { planId: saved.body.data.id });
    expect(rounds.body.msgContent).toBe('The patrol plan does not exist');
  });

  it('lists due, done and missed rounds and reminds a missed round once, by the clock', async () => {
    const { company, post, equipmentId, patrol } = await setUp();
    const now = Date.now();
    const plan = await post<{ id: string }>('/api/equipment/savePatrolPlan', {
      name: 'Every 8 h',
      equipmentId,
      intervalHours: 8,
      startTime: now - 20 * HOUR,
    });
    const planId = plan.body.data.id;
    // Round 0 [-20 h, -12 h) done, round 1 [-12 h, -4 h) missed, round 2 [-4 h, +4 h) due.
    const done = await patrol(now - 15 * HOUR, planId);
    const rounds = await post<Page<PatrolRound>>('/api/equipment/pagePatrolRounds', { planId });
    expect(rounds.body.data.total).toBe(3);
    expect(rounds.body.data.list.map((r) => r.state)).toEqual(['due', 'missed', 'done']);
    expect(rounds.body.data.list[2]).toMatchObject({
      startTime: now - 20 * HOUR,
      endTime: now - 12 * HOUR,
      recordId: done.body.data.id,
    });
    const plans = await post<Page<PatrolPlanView>>('/api/equipment/pagePatrolPlans', { equipmentId });
    expect(plans.body.data.list[0]).toMatchObject({
      intervalHours: 8,
      lastPatrolTime: now - 15 * HOUR,
      currentRound: { state: 'due', startTime: now - 4 * HOUR },
    });

    // Round 1 ended before the plan existed: not reminded. Five hours on, round 2 has ended unpatrolled.
    const mine = async (at: number) =>
      (await missedPatrols(ctx.app.db, new Date(at))).filter((r) => r.companyId === company.id);
    expect(await mine(now)).toEqual([]);
    const [missed] = await mine(now + 5 * HOUR);
    expect(missed).toMatchObject({
      key: `patrolMissed:${planId}:${now - 4 * HOUR}`,
      kind: 'reminder.patrolMissed',
    });
    expect(missed?.content.en).toContain('Vaccine freezer (410001)');
    expect(missed?.content.cn).toContain('巡检计划“Every 8 h”');

    await runReminderSweep(ctx.app.db, new Date(now + 5 * HOUR));
    await runReminderSweep(ctx.app.db, new Date(now + 6 * HOUR));
    const told = await ctx.app.db
      .select()
      .from(notices)
      .where(and(eq(notices.companyId, company.id), eq(notices.kind, 'reminder.patrolMissed')));
    expect(told).toHaveLength(1);
    expect(told[0]?.userId).toBe(company.admin.id);

    // A patrol in the round (any patrol of the equipment counts) makes it done: no reminder.
    const late = await patrol(now - HOUR);
    expect(await mine(now + 5 * HOUR)).toEqual([]);
    // The list says so too: the current round is done by that record, the last patrol is it.
    const listed = await post<Page<PatrolPlanView>>('/api/equipment/pagePatrolPlans', { equipmentId });
    expect(listed.body.data.list[0]).toMatchObject({
      lastPatrolTime: now - HOUR,
      currentRound: { state: 'done', startTime: now - 4 * HOUR, recordId: late.body.data.id },
    });
    // A disabled plan is not reminded.
    await post('/api/equipment/savePatrolPlan', {
      id: planId,
      name: 'Every 8 h',
      equipmentId,
      intervalHours: 8,
      enabled: false,
    });
    expect(await mine(now + 13 * HOUR)).toEqual([]);
    expect((await post('/api/equipment/deletePatrolPlan', { id: planId })).body.msgCode).toBe(200);
    const after = await post<Page<PatrolPlanView>>('/api/equipment/pagePatrolPlans', {});
    expect(after.body.data.total).toBe(0);
  });

  it('shows a group plan only to members who see equipment of the group', async () => {
    const { company, post, equipmentId } = await setUp();
    const dept = await buildDepartment(ctx.app.db, company.id, { name: 'Store' });
    const [group] = await ctx.app.db
      .insert(deviceGroups)
      .values({ companyId: company.id, departmentId: dept.id, name: 'Cold rooms' })
      .returning();
    const groupId = String(group!.id);
    await post('/api/equipment/saveEquipment', {
      id: equipmentId,
      typeId: (await post<{ typeId: string }>('/api/equipment/equipmentDetail', { id: equipmentId })).body
        .data.typeId,
      serialSuffix: '0001',
      name: 'Vaccine freezer',
      groupId,
    });
    const saved = await post<{ id: string }>('/api/equipment/savePatrolPlan', {
      name: 'Group rounds',
      groupId,
      intervalHours: 12,
    });
    expect(saved.body.msgCode).toBe(200);
    const elsewhere = await buildDepartment(ctx.app.db, company.id, { name: 'Elsewhere' });
    const role = await buildRole(ctx.app.db, company.id, elsewhere.id, ['equipment:view']);
    const member = await buildUser(ctx.app.db);
    await addMember(ctx.app.db, company.id, member.id, false, {
      departmentId: elsewhere.id,
      roleId: role.id,
    });
    const memberToken = await login(ctx.app, member.account);
    const seen = await call<Page<PatrolPlanView>>(
      ctx.app,
      '/api/equipment/pagePatrolPlans',
      {},
      {
        token: memberToken,
      },
    );
    expect(seen.body.data.total).toBe(0);
    const mine = await post<Page<PatrolPlanView>>('/api/equipment/pagePatrolPlans', { equipmentId });
    expect(mine.body.data.list.map((p) => p.groupName)).toEqual(['Cold rooms']);
  });
});

import {
  EquipmentUseState,
  PATROL_ROUNDS_MAX,
  type Page,
  type PagePatrolPlansRequest,
  type PagePatrolRoundsRequest,
  type PatrolPlanView,
  type PatrolRound,
  type SavePatrolPlanRequest,
} from '@coldchain/contract';
import { and, eq, inArray, isNotNull, or, type SQL, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client';
import { decodeJsonRow, jsonRowOf } from '../../db/json-rows';
import { pageOf } from '../../db/page-query';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { type Actor, recordAudit } from '../audit/audit.service';
import { deviceGroups } from '../groups/groups.table';
import { equipment, equipmentRecords, patrolPlans } from './equipment.table';
import { equipmentInScope, equipmentOf } from './equipment-access';

type PlanRow = typeof patrolPlans.$inferSelect;
const MINUTE = 60_000;

/**
 * A plan is visible where its equipment is (department scope); a group plan to a member who sees
 * the whole company or at least one equipment of the group, since groups have no department.
 */
function planInScope(db: Queryable, auth: Auth): SQL {
  const visibleEquipment = db.select({ id: equipment.id }).from(equipment).where(equipmentInScope(auth));
  const visibleGroups = db
    .select({ id: equipment.groupId })
    .from(equipment)
    .where(and(equipmentInScope(auth), isNotNull(equipment.groupId)));
  return and(
    eq(patrolPlans.companyId, auth.companyId ?? -1),
    or(
      inArray(patrolPlans.equipmentId, visibleEquipment),
      auth.scopePath === null ? isNotNull(patrolPlans.groupId) : inArray(patrolPlans.groupId, visibleGroups),
    ),
  )!;
}

async function planOf(db: Queryable, auth: Auth, wireId: string): Promise<PlanRow> {
  const id = idFromWire(wireId);
  const [row] = id
    ? await db
        .select()
        .from(patrolPlans)
        .where(and(eq(patrolPlans.id, id), planInScope(db, auth)))
    : [];
  if (!row) throw new AppError('PATROL_PLAN_NOT_FOUND');
  return row;
}

/** A group of the company the caller may plan for (as `planInScope` would show the plan). */
async function groupOf(db: Queryable, auth: Auth, wireId: string): Promise<number> {
  const id = idFromWire(wireId) ?? -1;
  const [group] = await db
    .select({ id: deviceGroups.id })
    .from(deviceGroups)
    .where(and(eq(deviceGroups.id, id), eq(deviceGroups.companyId, auth.companyId ?? -1)));
  if (!group) throw new AppError('GROUP_NOT_FOUND');
  if (auth.scopePath !== null) {
    const [mine] = await db
      .select({ id: equipment.id })
      .from(equipment)
      .where(and(eq(equipment.groupId, id), equipmentInScope(auth)))
      .limit(1);
    if (!mine) throw new AppError('GROUP_NOT_FOUND');
  }
  return id;
}

export async function savePatrolPlan(
  db: Db,
  actor: Actor,
  auth: Auth,
  input: SavePatrolPlanRequest,
): Promise<{ id: string }> {
  const before = input.id ? await planOf(db, auth, input.id) : null;
  const target = input.equipmentId ? await equipmentOf(db, auth, input.equipmentId) : null;
  if (target?.useState === EquipmentUseState.Disposed) throw new AppError('EQUIPMENT_DISPOSED');
  const equipmentId = target?.id ?? null;
  const groupId = input.groupId ? await groupOf(db, auth, input.groupId) : null;
  const values = {
    name: input.name,
    equipmentId,
    groupId,
    intervalMinutes: Math.round(input.intervalHours * 60),
    startTime: new Date(input.startTime ?? before?.startTime.getTime() ?? Date.now()),
    enabled: input.enabled,
  };
  return db.transaction(async (tx) => {
    const [row] = before
      ? await tx.update(patrolPlans).set(values).where(eq(patrolPlans.id, before.id)).returning()
      : await tx
          .insert(patrolPlans)
          .values({ ...values, companyId: actor.companyId })
          .returning();
    await recordAudit(tx, actor, {
      action: 'patrolPlan.save',
      targetType: 'patrolPlan',
      targetId: row!.id,
      before: before ?? undefined,
      after: row!,
    });
    return { id: idToWire(row!.id) };
  });
}

/** Deletes a plan; the patrol records made under it stay on the equipment's timeline. */
export async function deletePatrolPlan(db: Db, actor: Actor, auth: Auth, wireId: string): Promise<void> {
  const plan = await planOf(db, auth, wireId);
  await db.transaction(async (tx) => {
    await tx.delete(patrolPlans).where(eq(patrolPlans.id, plan.id));
    await recordAudit(tx, actor, {
      action: 'patrolPlan.delete',
      targetType: 'patrolPlan',
      targetId: plan.id,
      before: plan,
    });
  });
}

/**
 * The patrol records that count for a plan: those of its equipment (for a group plan, the group's
 * equipment now) and those made under the plan, whatever equipment has left the group since.
 */
function planRecords(plan: PlanRow): SQL {
  const target =
    plan.equipmentId !== null
      ? eq(equipmentRecords.equipmentId, plan.equipmentId)
      : inArray(
          equipmentRecords.equipmentId,
          sql`(select id from equipment where group_id = ${plan.groupId ?? -1})`,
        );
  return and(eq(equipmentRecords.kind, 'patrol'), or(target, eq(equipmentRecords.planId, plan.id)))!;
}

/** Rounds run from the start every interval; index 0 is the first. Before the start, round 0 is due. */
function currentIndex(plan: PlanRow, now: number): number {
  return Math.max(0, Math.floor((now - plan.startTime.getTime()) / (plan.intervalMinutes * MINUTE)));
}

function roundBounds(plan: PlanRow, index: number): [number, number] {
  const width = plan.intervalMinutes * MINUTE;
  const start = plan.startTime.getTime() + index * width;
  return [start, start + width];
}

/** Rounds `from`..`to` (indices, newest first) with their state, from the records in their span. */
async function roundsOf(
  db: Queryable,
  plan: PlanRow,
  indices: number[],
  now: number,
): Promise<PatrolRound[]> {
  if (indices.length === 0) return [];
  const earliest = roundBounds(plan, Math.min(...indices))[0];
  const latest = roundBounds(plan, Math.max(...indices))[1];
  const records = await db
    .select({ id: equipmentRecords.id, time: equipmentRecords.time })
    .from(equipmentRecords)
    .where(
      and(
        planRecords(plan),
        sql`${equipmentRecords.time} >= ${new Date(earliest).toISOString()}`,
        sql`${equipmentRecords.time} < ${new Date(latest).toISOString()}`,
      ),
    )
    .orderBy(equipmentRecords.time, equipmentRecords.id);
  const width = plan.intervalMinutes * MINUTE;
  const firstByRound = new Map<number, number>();
  for (const r of records) {
    const index = Math.floor((r.time.getTime() - plan.startTime.getTime()) / width);
    if (!firstByRound.has(index)) firstByRound.set(index, r.id);
  }
  return indices.map((index) => {
    const [startTime, endTime] = roundBounds(plan, index);
    const recordId = firstByRound.get(index);
    return {
      startTime,
      endTime,
      state: recordId !== undefined ? 'done' : endTime <= now ? 'missed' : 'due',
      recordId: recordId === undefined ? null : idToWire(recordId),
    };
  });
}

/**
 * A list row as one JSON value (db/page-query.ts): the plan, its target's name, its last patrol
 * and the first record of its current round. The records matched are `planRecords`' in SQL; the
 * current round is `currentIndex` in SQL, from the same `now` (epoch ms, one parameter).
 */
function planListRow(nowMs: SQL): SQL {
  const matches = sql`r.kind = 'patrol' and (
      r.equipment_id = ${patrolPlans.equipmentId}
      or r.equipment_id in (select g.id from ${equipment} g where g.group_id = ${patrolPlans.groupId})
      or r.plan_id = ${patrolPlans.id})`;
  const widthMs = sql`(${patrolPlans.intervalMinutes} * 60000::numeric)`;
  const startMs = sql`(extract(epoch from ${patrolPlans.startTime}) * 1000)`;
  const index = sql`greatest(0, floor((${nowMs}::numeric - ${startMs}) / ${widthMs}))`;
  const roundStart = sql`(${patrolPlans.startTime} + make_interval(mins => (${index} * ${patrolPlans.intervalMinutes})::int))`;
  const roundEnd = sql`(${roundStart} + make_interval(mins => ${patrolPlans.intervalMinutes}))`;
  return sql`json_build_object(
    'p', ${jsonRowOf(patrolPlans, 'patrol_plans')},
    'equipmentName', (select e.name from ${equipment} e where e.id = ${patrolPlans.equipmentId}),
    'groupName', (select g.name from ${deviceGroups} g where g.id = ${patrolPlans.groupId}),
    'lastPatrolTime', (select (extract(epoch from max(r.time)) * 1000)::float8 from ${equipmentRecords} r where ${matches}),
    'roundRecordId', (select r.id from ${equipmentRecords} r
      where ${matches} and r.time >= ${roundStart} and r.time < ${roundEnd}
      order by r.time, r.id limit 1))`;
}

interface RawPlanRow {
  p: Record<string, unknown>;
  equipmentName: string | null;
  groupName: string | null;
  lastPatrolTime: number | null;
  roundRecordId: number | string | null;
}

/** `/api/equipment/pagePatrolPlans`: one statement (plus the equipment's check when filtered by it). */
export async function pagePatrolPlans(
  db: Db,
  auth: Auth,
  query: PagePatrolPlansRequest,
  now = Date.now(),
): Promise<Page<PatrolPlanView>> {
  let filter: SQL | undefined;
  if (query.equipmentId) {
    // The plans that cover this equipment: its own and its group's.
    const target = await equipmentOf(db, auth, query.equipmentId);
    filter = or(
      eq(patrolPlans.equipmentId, target.id),
      target.groupId === null ? undefined : eq(patrolPlans.groupId, target.groupId),
    );
  }
  return pageOf(
    db,
    {
      row: planListRow(sql`${now}::float8`),
      from: patrolPlans,
      where: and(planInScope(db, auth), filter),
      orderBy: sql`${patrolPlans.createdAt} desc, ${patrolPlans.id} desc`,
    },
    query,
    (raw: RawPlanRow): PatrolPlanView => {
      const plan = decodeJsonRow(patrolPlans, raw.p);
      const [startTime, endTime] = roundBounds(plan, currentIndex(plan, now));
      const recordId = raw.roundRecordId === null ? null : Number(raw.roundRecordId);
      return {
        id: idToWire(plan.id),
        name: plan.name,
        equipmentId: plan.equipmentId === null ? null : idToWire(plan.equipmentId),
        equipmentName: raw.equipmentName ?? '',
        groupId: plan.groupId === null ? null : idToWire(plan.groupId),
        groupName: raw.groupName ?? '',
        intervalHours: plan.intervalMinutes / 60,
        startTime: plan.startTime.getTime(),
        enabled: plan.enabled,
        lastPatrolTime: raw.lastPatrolTime === null ? null : Math.round(raw.lastPatrolTime),
        currentRound: {
          startTime,
          endTime,
          state: recordId !== null ? 'done' : endTime <= now ? 'missed' : 'due',
          recordId: recordId === null ? null : idToWire(recordId),
        },
      };
    },
  );
}

/** The plan's rounds newest first, the current one included, at most the last `PATROL_ROUNDS_MAX`. */
export async function pagePatrolRounds(
  db: Db,
  auth: Auth,
  query: PagePatrolRoundsRequest,
  now = Date.now(),
): Promise<Page<PatrolRound>> {
  const plan = await planOf(db, auth, query.planId);
  const newest = currentIndex(plan, now);
  const total = Math.min(newest + 1, PATROL_ROUNDS_MAX);
  const from = (query.pageNum - 1) * query.pageSize;
  const indices: number[] = [];
  for (let i = from; i < Math.min(total, from + query.pageSize); i++) indices.push(newest - i);
  return {
    list: await roundsOf(db, plan, indices, now),
    total,
    pageNum: query.pageNum,
    pageSize: query.pageSize,
  };
}

import type { EquipmentUseStateCounts } from '@coldchain/contract';
import { type SQL, sql } from 'drizzle-orm';
import { type Queryable, queryRows } from '../../db/client';
import type { Auth } from '../../plugins/auth';
import { equipment } from './equipment.table';
import { equipmentInScope } from './equipment-access';

/**
 * The equipment the caller may see, counted per use state, as one JSON value (`{"1": 3, "2": 1}`),
 * so the home overview can put it in its one statement.
 */
export function equipmentStatesJson(auth: Auth): SQL {
  return sql`(select json_object_agg(s.state, s.n) from (
    select ${equipment.useState} as state, count(*)::int as n from ${equipment}
    where ${equipmentInScope(auth)} group by ${equipment.useState}) s)`;
}

/** Reads what `equipmentStatesJson` gave (the embedded database answers JSON as text). */
export function useStateCounts(
  value: Record<string, number> | string | null | undefined,
): EquipmentUseStateCounts {
  const counted: Record<string, number> = (typeof value === 'string' ? JSON.parse(value) : value) ?? {};
  const of = (state: number) => Number(counted[String(state)] ?? 0);
  return {
    total: Object.values(counted).reduce((sum, n) => sum + Number(n), 0),
    inUse: of(1),
    underService: of(2),
    disposed: of(3),
    standby: of(4),
  };
}

/** The home overview's equipment figures on their own: equipment the caller may see, per use state. */
export async function equipmentCountsByUseState(db: Queryable, auth: Auth): Promise<EquipmentUseStateCounts> {
  const [row] = await queryRows<{ states: Record<string, number> | string | null }>(
    db,
    sql`select ${equipmentStatesJson(auth)} as states`,
  );
  return useStateCounts(row?.states);
}

import type { Page } from '@coldchain/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { type Queryable, queryRows } from './client';
import { plannedOnce } from './planned-once';

/**
 * The one way to page a list (docs/performance.md, "List calls"): the page's rows and the list's
 * total in one statement, prepared once. A new list copies this shape:
 *
 * ```ts
 * const where = and(scope, whenGiven(query.state, 'smallint', (v) => sql`${t.state} = ${v}`));
 * return pageOf(db, { row: sql`json_build_object('id', ${t.id}, ...)`, from: t, where,
 *   orderBy: sql`${t.name}, ${t.id}` }, query, (raw: RawRow) => present(raw));
 * ```
 *
 * - `row` is one row of the answer as a JSON value. What a row needs from other tables (a device's
 *   sensors, an alarm's device name) goes inside it as a subquery: it is evaluated for the rows of
 *   the page only, never once per row of the whole list, and never as a second statement.
 * - `where` holds the caller's scope (org/access.ts) and the filters. A filter the request leaves
 *   out is written with `whenGiven`, so that the statement's text is the same whatever the request
 *   sends and the embedded database plans it once (`plannedOnce`); values are parameters (times as
 *   epoch milliseconds, lists as one array parameter with `= any(...)`), never text.
 *   The price: a plan made for every value reads each such filter as if it kept about one row, so
 *   it sorts rather than walks an index in the list's order. A list that opens unfiltered on a
 *   large table and has that index runs its unfiltered form as a statement of its own
 *   (`deviceListQuery`, modules/devices/device-views.ts).
 * - `orderBy` ends with a unique column, so that rows equal on the first keys keep one order from
 *   page to page.
 *
 * The total is a `count(*)` beside the page in the same statement, not `count(*) over ()` on the
 * page's rows: a window over the whole list makes PostgreSQL read and sort every row before the
 * limit, while a plain `order by ... limit` walks an index and stops after the page (12,000
 * alarms: 8 ms instead of 44 for the statement; docs/performance.md, "List calls").
 *
 * Whole examples: `listNotices` (modules/notices, the smallest), `pageAlarms` (modules/alarms,
 * time filters and names from other tables) and `pageDevices` (modules/devices/device-views.ts,
 * child rows and a per-row right). Add the new call to test/page-load-statements.test.ts with its
 * budget of one statement, so that a later N+1 fails there.
 */
export interface PageQuery {
  /** One row of the answer as a JSON value, e.g. `json_build_object(...)` or `jsonRowOf(...)`. */
  row: SQL;
  /** The table the list reads, unaliased: the scope helpers (org/access.ts) name its columns so. */
  from: PgTable;
  where: SQL | undefined;
  orderBy: SQL;
}

export interface PageRequest {
  pageNum: number;
  pageSize: number;
}

/** The page's rows as JSON values and the total, as the statement answers them. */
export interface RawPage<Raw> {
  rows: Raw[];
  total: number;
}

/**
 * The statement `pageOf` runs (exported for its tests). The rows are numbered after the limit, in
 * the order the sorted subquery hands them over, so that `json_agg` keeps that order.
 */
export function pageStatement(query: PageQuery, page: PageRequest): SQL {
  const where = query.where ?? sql`true`;
  // A page far past any list (pageNum 1e12) is simply empty: clamped to what an int holds, so the
  // cast below never overflows into a server error (found by the API fuzz, issue 15).
  const offset = Math.min((page.pageNum - 1) * page.pageSize, 2_147_483_647);
  return plannedOnce(sql`select
      (select count(*) from ${query.from} where ${where})::int as total,
      coalesce((select json_agg(numbered.row order by numbered.n) from (
        select p.row, row_number() over () as n from (
          select ${query.row} as row from ${query.from}
          where ${where}
          order by ${query.orderBy}
          limit ${page.pageSize}::int offset ${offset}::int
        ) p
      ) numbered), '[]'::json) as rows`);
}

/** Runs a page statement and returns its rows still as the JSON values `row` built. */
export async function selectPage<Raw>(
  db: Queryable,
  query: PageQuery,
  page: PageRequest,
): Promise<RawPage<Raw>> {
  const [result] = await queryRows<{ total: number | string; rows: Raw[] | string }>(
    db,
    pageStatement(query, page),
  );
  // Drivers differ: node-postgres parses json, PGlite may hand it over as text.
  const rows = typeof result?.rows === 'string' ? (JSON.parse(result.rows) as Raw[]) : (result?.rows ?? []);
  return { rows, total: Number(result?.total ?? 0) };
}

/** A page of a list as the API answers it (API.md "Lists"), each row turned into its view by `present`. */
export async function pageOf<Raw, View>(
  db: Queryable,
  query: PageQuery,
  page: PageRequest,
  present: (raw: Raw) => View,
): Promise<Page<View>> {
  const { rows, total } = await selectPage<Raw>(db, query, page);
  return { list: rows.map(present), total, pageNum: page.pageNum, pageSize: page.pageSize };
}

/**
 * A filter applied only when `value` is given, written so that the statement's text does not
 * depend on it: `($1::type is null or <condition>)`. `type` is the parameter's SQL type (the
 * embedded database prepares the statement once and must know it). Pass times as epoch
 * milliseconds (`epochParam`), not as Date objects.
 */
export function whenGiven<T>(
  value: T | null | undefined,
  type: 'smallint' | 'int' | 'bigint' | 'text' | 'float8',
  condition: (param: SQL) => SQL,
): SQL {
  const given = value === undefined ? null : value;
  const param = sql`${given}::${sql.raw(type)}`;
  return sql`(${param} is null or ${condition(param)})`;
}

/** An instant (epoch milliseconds) as a `timestamptz` expression of one parameter. */
export function epochParam(param: SQL): SQL {
  return sql`to_timestamp(${param} / 1000.0)`;
}

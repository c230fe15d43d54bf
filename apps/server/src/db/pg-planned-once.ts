import { createHash } from 'node:crypto';
import type pg from 'pg';
import { PLANNED_ONCE_MARK } from './planned-once';

/** A bound on the statements each connection keeps prepared, should a marked text ever vary. */
const MAX_NAMED = 200;

/**
 * On PostgreSQL, statements marked planned-once (planned-once.ts: the list pages, ingest's
 * write, the alarm engine's) are sent as named prepared statements, so each connection parses
 * and plans them once and then only binds and executes them; unnamed, every call was parsed and
 * planned again, which for a page's one statement cost more than running it. The connections run
 * with `plan_cache_mode = force_generic_plan` (`PLANNED_ONCE_OPTIONS`), which only prepared
 * statements heed: the marked statements are written for a generic plan (`$1 is null or ...`),
 * and PostgreSQL's default would plan each of their first five runs again and then, judging
 * their generic plans costlier on paper, go on planning them at every call.
 */
export function prepareMarkedStatements(pool: pg.Pool): void {
  const names = new Map<string, string>();
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (config: unknown, ...rest: unknown[]) => {
      if (isMarked(config)) {
        let name = names.get(config.text);
        if (!name && names.size < MAX_NAMED) {
          name = `po_${createHash('sha1').update(config.text).digest('hex').slice(0, 24)}`;
          names.set(config.text, name);
        }
        if (name) return query({ ...config, name }, ...rest);
      }
      return query(config, ...rest);
    };
  });
}

/** The pool's connection option that makes prepared statements use their generic plan. */
export const PLANNED_ONCE_OPTIONS = '-c plan_cache_mode=force_generic_plan';

function isMarked(config: unknown): config is { text: string; name?: string } {
  return (
    typeof config === 'object' &&
    config !== null &&
    typeof (config as { text?: unknown }).text === 'string' &&
    !(config as { name?: unknown }).name &&
    (config as { text: string }).text.startsWith(PLANNED_ONCE_MARK)
  );
}

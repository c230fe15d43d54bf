import { createHash } from 'node:crypto';
import type pg from 'pg';
import { PLANNED_ONCE_MARK } from './planned-once';

/** A bound on the statements each connection keeps prepared, should a marked text ever vary. */
const MAX_NAMED = 200;

/**
 * On PostgreSQL, statements marked planned-once (planned-once.ts: the list pages, ingest's
 * write, the alarm engine's) are sent as named prepared statements, so each connection parses
 * and analyses them once and then binds and executes them; unnamed, every call was parsed again,
 * which for a page's one long statement cost about as much as running it. PostgreSQL keeps its
 * own choice of plan (`plan_cache_mode` auto): a generic plan once it is as cheap as the values'
 * own plans, else a plan per call. Forcing the generic plan, as the embedded database's thread
 * does, gained nothing more on the demo and risks a plan unfit for a large company's data
 * (pageAlarms over 10 000 more alarms: 51-125 calls/s forced, 162 with PostgreSQL's choice).
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

function isMarked(config: unknown): config is { text: string; name?: string } {
  return (
    typeof config === 'object' &&
    config !== null &&
    typeof (config as { text?: unknown }).text === 'string' &&
    !(config as { name?: unknown }).name &&
    (config as { text: string }).text.startsWith(PLANNED_ONCE_MARK)
  );
}

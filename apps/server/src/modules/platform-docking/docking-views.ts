import { type CompanyDockingView, DockingState, type Page } from '@coldchain/contract';
import { sql } from 'drizzle-orm';
import { idToWire } from '../../lib/ids';

/**
 * One docking (table alias `d` of the enclosing query) as a JSON scalar, with its queue address's figures. An enabled docking
 * whose address the delivery worker stopped after a day of failures reads as stopped, with
 * `stoppedByFailures`, so the company sees why nothing arrives any more.
 */
export const dockingViewSql = sql`(select json_build_object(
  'id', d.id, 'platformId', d.platform_id,
  'platformName', (select p.name from docking_platforms p where p.id = d.platform_id),
  'state', case when d.state = ${DockingState.Enabled} and u.state = 3 then ${DockingState.Stopped} else d.state end,
  'stoppedByFailures', d.state = ${DockingState.Enabled} and coalesce(u.state = 3, false),
  'deviceIds', d.device_ids,
  'appliedBy', coalesce((select x.name from users x where x.id = d.applied_by), ''),
  'appliedAt', d.applied_at, 'decidedAt', d.decided_at, 'reason', d.reason,
  'queued', (select count(*) from push_deliveries q where q.url_id = d.push_url_id
             and q.status in ('queued', 'sending', 'retrying')),
  'lastDeliveryAt', u.last_delivery_at, 'failingSince', u.failing_since)
  from (select 1) one left join push_urls u on u.id = d.push_url_id)`;

const millis = (value: unknown) =>
  value === null || value === undefined ? null : new Date(value as string).getTime();

/** Decodes `dockingViewSql` (a JSON object, or its text on the embedded database). */
export function dockingView(raw: unknown): CompanyDockingView {
  const row = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Record<string, unknown>;
  return {
    id: idToWire(Number(row.id)),
    platformId: idToWire(Number(row.platformId)),
    platformName: String(row.platformName ?? ''),
    state: Number(row.state) as CompanyDockingView['state'],
    stoppedByFailures: row.stoppedByFailures === true,
    deviceIds: ((row.deviceIds as (number | string)[] | null) ?? []).map((id) => idToWire(Number(id))),
    appliedBy: String(row.appliedBy ?? ''),
    applyTime: millis(row.appliedAt)!,
    decideTime: millis(row.decidedAt),
    reason: String(row.reason ?? ''),
    queued: Number(row.queued ?? 0),
    lastDeliveryAt: millis(row.lastDeliveryAt),
    failingSince: millis(row.failingSince),
  };
}

export function emptyPage<T>(query: { pageNum: number; pageSize: number }): Page<T> {
  return { list: [], total: 0, pageNum: query.pageNum, pageSize: query.pageSize };
}

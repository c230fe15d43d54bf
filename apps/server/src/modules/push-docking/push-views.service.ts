import type {
  Page,
  PagePushDeliveriesRequest,
  PagePushUrlsRequest,
  PushDeliveryStatus,
  PushDeliveryView,
  PushEvent,
  PushUrlState,
  PushUrlView,
} from '@coldchain/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { decodeJsonRow, jsonRowOf } from '../../db/json-rows';
import { pageOf } from '../../db/page-query';
import { idToWire } from '../../lib/ids';
import { users } from '../users/users.table';
import { pushBindings, pushDeliveries, pushUrls } from './push-docking.table';
import { pushUrlOf } from './push-urls.service';

/** An address as one JSON value: its row (the sealed secret left out below), creator, devices, queue. */
const urlRow = sql`json_build_object(
  'u', ${jsonRowOf(pushUrls, 'push_urls')},
  'createdBy', (select u.name from ${users} u where u.id = ${pushUrls.createdBy}),
  'deviceIds', coalesce((select json_agg(b.device_id order by b.device_id) from ${pushBindings} b where b.url_id = ${pushUrls.id}), '[]'::json),
  'queued', (select count(*) from ${pushDeliveries} d where d.url_id = ${pushUrls.id} and d.status in ('queued', 'sending', 'retrying')))`;

interface RawUrlRow {
  u: Record<string, unknown>;
  createdBy: string | null;
  deviceIds: (number | string)[];
  queued: number | string;
}

/** `/api/push/pageUrls`: the company's addresses, stopped ones last, newest first; one statement. */
export async function pagePushUrls(
  db: Db,
  companyId: number,
  query: PagePushUrlsRequest,
): Promise<Page<PushUrlView>> {
  return pageOf(
    db,
    {
      row: urlRow,
      from: pushUrls,
      where: and(eq(pushUrls.companyId, companyId), eq(pushUrls.dockingOwned, false)),
      orderBy: sql`${pushUrls.state} = 3, ${pushUrls.createdAt} desc, ${pushUrls.id} desc`,
    },
    query,
    (raw: RawUrlRow): PushUrlView => {
      const u = decodeJsonRow(pushUrls, raw.u);
      return {
        id: idToWire(u.id),
        name: u.name,
        url: u.url,
        events: u.events as PushEvent[],
        state: u.state as PushUrlState,
        deviceIds: raw.deviceIds.map((id) => idToWire(Number(id))),
        createdBy: raw.createdBy ?? '',
        createTime: u.createdAt.getTime(),
        queued: Number(raw.queued),
        failingSince: u.failingSince?.getTime() ?? null,
        lastDeliveryAt: u.lastDeliveryAt?.getTime() ?? null,
      };
    },
  );
}

/** `/api/push/pageDeliveries`: an address's deliveries, newest first; one statement after the address's check. */
export async function pagePushDeliveries(
  db: Db,
  companyId: number,
  query: PagePushDeliveriesRequest,
): Promise<Page<PushDeliveryView>> {
  const url = await pushUrlOf(db, companyId, query.id);
  return pageDeliveriesOf(db, url.id, query);
}

/** The deliveries of one address, newest first; platform docking pages its own address with it. */
export function pageDeliveriesOf(
  db: Db,
  urlId: number,
  query: { pageNum: number; pageSize: number },
): Promise<Page<PushDeliveryView>> {
  return pageOf(
    db,
    {
      // The body stays out of the list: a batch of readings can be large.
      row: sql`json_build_object('id', ${pushDeliveries.id}, 'event', ${pushDeliveries.event},
        'createdAt', ${pushDeliveries.createdAt}, 'httpStatus', ${pushDeliveries.httpStatus},
        'durationMs', ${pushDeliveries.durationMs}, 'attempts', ${pushDeliveries.attempts},
        'status', ${pushDeliveries.status}, 'error', ${pushDeliveries.error}, 'items', ${pushDeliveries.items})`,
      from: pushDeliveries,
      where: eq(pushDeliveries.urlId, urlId),
      orderBy: sql`${pushDeliveries.id} desc`,
    },
    query,
    (raw: Record<string, unknown>): PushDeliveryView => ({
      id: idToWire(Number(raw.id)),
      event: raw.event as PushDeliveryView['event'],
      time: new Date(raw.createdAt as string).getTime(),
      httpStatus: raw.httpStatus === null ? null : Number(raw.httpStatus),
      durationMs: raw.durationMs === null ? null : Number(raw.durationMs),
      attempts: Number(raw.attempts),
      status: raw.status as PushDeliveryStatus,
      error: String(raw.error ?? ''),
      items: Number(raw.items),
    }),
  );
}

import { type PushDeliveryBody, type PushTestResult, PushUrlState } from '@coldchain/contract';
import { and, eq, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { idToWire } from '../../lib/ids';
import type { SecretBox } from '../../lib/secret-box';
import { type Actor, recordAudit } from '../audit/audit.service';
import { pushDeliveries, pushUrls } from './push-docking.table';
import type { PushSender } from './push-sender';
import { pushUrlOf } from './push-urls.service';

/** Reserves delivery ids before their bodies are written: the id is in the body (`deliveryId`). */
export async function nextDeliveryIds(db: Pick<Db, 'execute'>, n: number): Promise<number[]> {
  if (n === 0) return [];
  const rows = await queryRows<{ id: string | number }>(
    db as Db,
    sql`select nextval(pg_get_serial_sequence('push_deliveries', 'id')) as id from generate_series(1, ${n})`,
  );
  return rows.map((r) => Number(r.id));
}

/**
 * `/api/push/testUrl`: sends a `test` delivery now and waits for the answer. A 2xx proves the
 * receiver holds the secret's address and answers, so a pending address becomes enabled. The
 * attempt is listed with the address's deliveries; it is not retried.
 */
export async function testPushUrl(
  db: Db,
  box: SecretBox,
  sender: PushSender,
  actor: Actor,
  wireId: string,
): Promise<PushTestResult> {
  const url = await pushUrlOf(db, actor.companyId, wireId);
  if (url.state === PushUrlState.Stopped) throw new AppError('PUSH_URL_STOPPED');
  const [id] = await nextDeliveryIds(db, 1);
  const body: PushDeliveryBody = {
    deliveryId: idToWire(id!),
    event: 'test',
    companyId: idToWire(url.companyId),
    time: Date.now(),
    items: [],
  };
  const text = JSON.stringify(body);
  if (await sender.refusal(url.url)) throw new AppError('PUSH_URL_UNREACHABLE');
  let secret: string;
  try {
    secret = box.open(url.secretSealed);
  } catch {
    // Sealed under another SECRET_KEY: nothing can be signed with it any more.
    throw new AppError('PUSH_SECRET_LOST');
  }
  const attempt = await sender.send(url.url, secret, { id: id!, event: 'test', body: text });
  // Checked again as it is sent: the name may have moved in between.
  if (attempt.refused) throw new AppError('PUSH_URL_UNREACHABLE');
  return db.transaction(async (tx) => {
    await tx.insert(pushDeliveries).values({
      id,
      urlId: url.id,
      event: 'test',
      body: text,
      items: 0,
      status: attempt.ok ? 'delivered' : 'failed',
      attempts: 1,
      httpStatus: attempt.httpStatus,
      durationMs: attempt.durationMs,
      error: attempt.error,
      deliveredAt: attempt.ok ? new Date() : null,
    });
    // Only a pending address is enabled by a test; a concurrent stop wins.
    const enabled = attempt.ok
      ? await tx
          .update(pushUrls)
          .set({ state: PushUrlState.Enabled })
          .where(and(eq(pushUrls.id, url.id), eq(pushUrls.state, PushUrlState.Pending)))
          .returning({ id: pushUrls.id })
      : [];
    const state = enabled.length > 0 ? PushUrlState.Enabled : (url.state as PushUrlState);
    await recordAudit(tx, actor, {
      action: 'push.testUrl',
      targetType: 'pushUrl',
      targetId: String(url.id),
      before: { name: url.name, state: url.state },
      after: { state, httpStatus: attempt.httpStatus, ok: attempt.ok },
    });
    return {
      ok: attempt.ok,
      httpStatus: attempt.httpStatus,
      durationMs: attempt.durationMs,
      error: attempt.error,
      state,
    };
  });
}

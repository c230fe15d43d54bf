import { randomBytes } from 'node:crypto';
import {
  PUSH_MAX_URLS,
  PushUrlState,
  type SavedPushUrl,
  type SavePushUrlRequest,
  type SetPushDevicesRequest,
} from '@coldchain/contract';
import { and, count, eq, inArray } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { idFromWire, idToWire } from '../../lib/ids';
import type { SecretBox } from '../../lib/secret-box';
import type { Auth } from '../../plugins/auth';
import { type Actor, recordAudit } from '../audit/audit.service';
import { assertDevicesVisible } from '../org/access';
import { pushBindings, pushDeliveries, pushUrls } from './push-docking.table';
import type { PushSender } from './push-sender';

export type PushUrlRow = typeof pushUrls.$inferSelect;

/** The company's address, or "does not exist" (another company's id included). */
export async function pushUrlOf(db: Queryable, companyId: number, wireId: string): Promise<PushUrlRow> {
  const id = idFromWire(wireId);
  const [row] = id
    ? await db
        .select()
        .from(pushUrls)
        .where(and(eq(pushUrls.id, id), eq(pushUrls.companyId, companyId), eq(pushUrls.dockingOwned, false)))
    : [];
  if (!row) throw new AppError('PUSH_URL_NOT_FOUND');
  return row;
}

/** Refuses an address the platform may not reach (loopback, private, metadata; API.md). */
async function requireReachable(sender: PushSender, url: string) {
  if (await sender.refusal(url)) throw new AppError('PUSH_URL_UNREACHABLE');
}

/**
 * `/api/push/saveUrl`: a new address (pending until a test delivery is answered 2xx, with a new
 * secret answered this once) or an edit. A changed URL, or saving a stopped address, makes it
 * pending again: the receiver must prove itself anew.
 */
export async function savePushUrl(
  db: Db,
  box: SecretBox,
  sender: PushSender,
  actor: Actor,
  input: SavePushUrlRequest,
): Promise<SavedPushUrl> {
  // Another company's id is "does not exist" before anything is said about the URL.
  if (input.id) await pushUrlOf(db, actor.companyId, input.id);
  await requireReachable(sender, input.url);
  const events = [...new Set(input.events)];
  return db.transaction(async (tx) => {
    if (input.id) {
      const before = await pushUrlOf(tx, actor.companyId, input.id);
      const pending = before.url !== input.url || before.state === PushUrlState.Stopped;
      await tx
        .update(pushUrls)
        .set({
          name: input.name,
          url: input.url,
          events,
          ...(pending ? { state: PushUrlState.Pending, failingSince: null } : {}),
        })
        .where(eq(pushUrls.id, before.id));
      await recordAudit(tx, actor, {
        action: 'push.saveUrl',
        targetType: 'pushUrl',
        targetId: String(before.id),
        before: { name: before.name, url: before.url, events: before.events, state: before.state },
        after: {
          name: input.name,
          url: input.url,
          events,
          state: pending ? PushUrlState.Pending : before.state,
        },
      });
      return { id: idToWire(before.id) };
    }
    const [held] = await tx
      .select({ n: count() })
      .from(pushUrls)
      .where(and(eq(pushUrls.companyId, actor.companyId), eq(pushUrls.dockingOwned, false)));
    if ((held?.n ?? 0) >= PUSH_MAX_URLS) throw new AppError('PUSH_TOO_MANY_URLS');
    // 192 bits, URL-safe, so it pastes cleanly into any receiver's configuration.
    const secret = randomBytes(24).toString('base64url');
    const [row] = await tx
      .insert(pushUrls)
      .values({
        companyId: actor.companyId,
        name: input.name,
        url: input.url,
        events,
        secretSealed: box.seal(secret),
        createdBy: actor.userId,
      })
      .returning({ id: pushUrls.id });
    await recordAudit(tx, actor, {
      action: 'push.saveUrl',
      targetType: 'pushUrl',
      targetId: String(row!.id),
      after: { name: input.name, url: input.url, events, state: PushUrlState.Pending },
    });
    return { id: idToWire(row!.id), secret };
  });
}

/** `/api/push/setDevices`: the devices whose data goes to the address; only devices the caller sees. */
export async function setPushDevices(
  db: Db,
  actor: Actor,
  auth: Auth,
  input: SetPushDevicesRequest,
): Promise<{ deviceIds: string[] }> {
  const wanted = [...new Set(input.deviceIds.map((id) => idFromWire(id)!))];
  return db.transaction(async (tx) => {
    const url = await pushUrlOf(tx, actor.companyId, input.id);
    if (url.state === PushUrlState.Stopped) throw new AppError('PUSH_URL_STOPPED');
    await assertDevicesVisible(tx, auth, wanted);
    const before = await tx
      .select({ id: pushBindings.deviceId })
      .from(pushBindings)
      .where(eq(pushBindings.urlId, url.id));
    await tx.delete(pushBindings).where(eq(pushBindings.urlId, url.id));
    if (wanted.length)
      await tx.insert(pushBindings).values(wanted.map((deviceId) => ({ urlId: url.id, deviceId })));
    await recordAudit(tx, actor, {
      action: 'push.setDevices',
      targetType: 'pushUrl',
      targetId: String(url.id),
      before: { deviceIds: before.map((d) => d.id).sort((a, b) => a - b) },
      after: { deviceIds: [...wanted].sort((a, b) => a - b) },
    });
    return { deviceIds: wanted.map(idToWire) };
  });
}

/** Stops an address: nothing more is queued or sent, and its queue and device bindings are cleared. */
export async function clearPushUrl(tx: Queryable, urlId: number): Promise<void> {
  await tx
    .update(pushUrls)
    .set({ state: PushUrlState.Stopped, failingSince: null })
    .where(eq(pushUrls.id, urlId));
  await tx
    .delete(pushDeliveries)
    .where(
      and(eq(pushDeliveries.urlId, urlId), inArray(pushDeliveries.status, ['queued', 'sending', 'retrying'])),
    );
  await tx.delete(pushBindings).where(eq(pushBindings.urlId, urlId));
}

/** `/api/push/stopUrl` (the spec: stopping clears the docking data). */
export async function stopPushUrl(db: Db, actor: Actor, wireId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const url = await pushUrlOf(tx, actor.companyId, wireId);
    if (url.state === PushUrlState.Stopped) return;
    await clearPushUrl(tx, url.id);
    await recordAudit(tx, actor, {
      action: 'push.stopUrl',
      targetType: 'pushUrl',
      targetId: String(url.id),
      before: { name: url.name, url: url.url, state: url.state },
      after: { state: PushUrlState.Stopped },
    });
  });
}

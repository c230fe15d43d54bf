import {
  DeliveryState,
  isEmail,
  isMobile,
  LinkReceiptRequest,
  type LinkReceiveRequest,
  type ReceiveDeliveryRequest,
  type SendReceiptLinkRequest,
  type UploadResult,
  type WireLanguage,
} from '@coldchain/contract';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db, Queryable, Tx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { idFromWire } from '../../lib/ids';
import { hashToken, newToken } from '../../lib/tokens';
import { type Actor, recordAudit } from '../audit/audit.service';
import { checkUpload, readUpload, writeUpload } from '../files/file-store';
import type { FileStore } from '../files/store/store';
import type { Mailer } from '../notify/mailer';
import { sendMessage } from '../notify/outbox.service';
import { loadSigner, type Signer, verifySignature } from '../signature/signature.service';
import { type DeliveryRow, ownDelivery, requireState } from './deliveries.service';
import { logisticsReceiptLinks, type ReceiptSignature, logisticsDeliveries as t } from './deliveries.table';
import { linkTexts } from './delivery-texts';

/** Photos are JPG or PNG: what every phone takes and the delivery note's PDF can print. */
function checkPhoto(bytes: Buffer, language: WireLanguage) {
  const type = checkUpload('feedback', bytes, language);
  if (type !== 'jpg' && type !== 'png') throw new AppError('LOGISTICS_PHOTO_TYPE');
  return type;
}

/**
 * A photo of the goods at the door: an image the caller uploaded (`/api/file/upload`, or
 * `/api/logistics/linkPhoto` from a receipt link).
 */
async function acceptPhoto(store: FileStore, url: string | undefined, language: WireLanguage) {
  if (!url) return '';
  const stored = await readUpload(store, url);
  if (!stored) throw new AppError('LOGISTICS_PHOTO_NOT_FOUND');
  checkPhoto(stored.bytes, language);
  return url;
}

/** The decision written on the order, audited in the sender's log (and the receiver's, when another company). */
async function writeReceipt(
  tx: Tx,
  row: DeliveryRow,
  receipt: {
    accepted: boolean;
    remarks: string;
    photo: string;
    signature: ReceiptSignature;
    userId: number | null;
  },
  actors: Actor[],
  action: string,
) {
  requireState(row, [DeliveryState.Arrived]);
  const state = receipt.accepted ? DeliveryState.Received : DeliveryState.Rejected;
  await tx
    .update(t)
    .set({
      state,
      receivedAt: new Date(receipt.signature.signedAt),
      receivedBy: receipt.userId,
      receiptRemarks: receipt.remarks,
      receiptPhoto: receipt.photo,
      receiptSignature: receipt.signature,
      updatedAt: new Date(),
    })
    .where(eq(t.id, row.id));
  const { image: _image, ...signature } = receipt.signature;
  for (const actor of actors) {
    await recordAudit(tx, actor, {
      action,
      targetType: 'logisticsDelivery',
      targetId: String(row.id),
      before: { state: row.state },
      after: {
        orderNo: row.orderNo,
        state,
        accepted: receipt.accepted,
        remarks: receipt.remarks,
        photo: receipt.photo,
        signature,
      },
    });
  }
}

/**
 * `/api/logistics/receiveDelivery`: the receiving company accepts or rejects an arrived order.
 * Signed through the one signature step as resolving an alarm is: while the company's audit
 * signature is on, the member's signature password is asked (checked before the order is read,
 * through the one lockout, so a wrong password tells nothing about it); while it is off, the
 * signed-in member's name is the receipt's signature (`account`).
 */
export async function receiveDelivery(
  db: Db,
  who: Signer,
  actor: Actor,
  input: ReceiveDeliveryRequest,
  files: { store: FileStore; language: WireLanguage },
): Promise<void> {
  const state = await loadSigner(db, who);
  if (state.signCheck) await verifySignature(db, who, state, input.signPassword);
  const method = state.signCheck ? ('password' as const) : ('account' as const);
  const photo = await acceptPhoto(files.store, input.photo, files.language);
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(t)
      .where(
        and(
          eq(t.id, idFromWire(input.id) ?? 0),
          eq(t.receiverCompanyId, actor.companyId),
          sql`${t.departedAt} is not null`,
        ),
      )
      .for('update');
    if (!row) throw new AppError('LOGISTICS_DELIVERY_NOT_FOUND');
    const actors = [actor];
    if (row.companyId !== actor.companyId)
      actors.push({ companyId: row.companyId, userId: null, ip: actor.ip });
    await writeReceipt(
      tx,
      row,
      {
        accepted: input.accepted,
        remarks: input.remarks ?? '',
        photo,
        userId: actor.userId,
        signature: {
          method,
          meaning: 'shipmentReceipt',
          signedBy: state.name,
          signedAt: Date.now(),
        },
      },
      actors,
      'logisticsDelivery.receive',
    );
  });
}

/** Days a receipt link lasts when the dispatcher does not say. */
export const DEFAULT_LINK_DAYS = 7;

/**
 * `/api/logistics/sendReceiptLink`: a link for a receiver outside the platform, sent through the
 * notify outbox by e-mail or SMS. The link's token is random (256 bits) and only its hash is
 * stored, with the instant it expires; the answer gives the dispatcher the link too, to read out
 * or paste when no message channel is configured.
 */
export async function sendReceiptLink(
  db: Db,
  mailer: Mailer | null,
  actor: Actor,
  input: SendReceiptLinkRequest,
  baseUrl: string,
  now = Date.now(),
): Promise<{ url: string; expireTime: number }> {
  const valid = input.channel === 'email' ? isEmail(input.recipient) : isMobile(input.recipient);
  if (!valid) throw new AppError('LOGISTICS_RECIPIENT_INVALID');
  const token = newToken();
  const expireTime = now + input.validDays * 86_400_000;
  const url = `${baseUrl}/receipt/${token}`;
  const row = await db.transaction(async (tx) => {
    const delivery = await ownDelivery(tx, actor.companyId, input.id, true);
    requireState(delivery, [DeliveryState.InTransit, DeliveryState.Arrived]);
    await tx.insert(logisticsReceiptLinks).values({
      deliveryId: delivery.id,
      companyId: actor.companyId,
      tokenHash: hashToken(token),
      channel: input.channel,
      recipient: input.recipient,
      expiresAt: new Date(expireTime),
      createdBy: actor.userId,
    });
    await recordAudit(tx, actor, {
      action: 'logisticsDelivery.sendLink',
      targetType: 'logisticsDelivery',
      targetId: String(delivery.id),
      after: { orderNo: delivery.orderNo, channel: input.channel, recipient: input.recipient, expireTime },
    });
    return delivery;
  });
  const text = linkTexts[input.language];
  await sendMessage(db, mailer, {
    companyId: actor.companyId,
    channel: input.channel,
    recipient: input.recipient,
    subject: text.subject(row.orderNo),
    body: text.body(
      row.orderNo,
      row.sender.name,
      url,
      new Date(expireTime).toISOString().slice(0, 16).replace('T', ' '),
    ),
  });
  return { url, expireTime };
}

/** The order a link opens, while the link lasts; an unknown and an expired link read alike. */
export async function linkDeliveryId(db: Queryable, token: string, now = Date.now()): Promise<number> {
  const [link] = await db
    .select({ deliveryId: logisticsReceiptLinks.deliveryId })
    .from(logisticsReceiptLinks)
    .where(
      and(
        eq(logisticsReceiptLinks.tokenHash, hashToken(token)),
        gt(logisticsReceiptLinks.expiresAt, new Date(now)),
      ),
    );
  if (!link) throw new AppError('LOGISTICS_LINK_EXPIRED');
  return link.deliveryId;
}

/**
 * `/api/logistics/linkReceive`: a receiver outside the platform accepts or rejects by typing a
 * name and drawing a signature. Audited in the sender's log (no member signed it).
 */
export async function linkReceive(
  db: Db,
  input: LinkReceiveRequest,
  who: { ip: string; store: FileStore; language: WireLanguage },
  now = Date.now(),
) {
  const deliveryId = await linkDeliveryId(db, input.token, now);
  const photo = await acceptPhoto(who.store, input.photo, who.language);
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(t).where(eq(t.id, deliveryId)).for('update');
    if (!row) throw new AppError('LOGISTICS_DELIVERY_NOT_FOUND');
    await writeReceipt(
      tx,
      row,
      {
        accepted: input.accepted,
        remarks: input.remarks ?? '',
        photo,
        userId: null,
        signature: {
          method: 'drawn',
          meaning: 'shipmentReceipt',
          signedBy: input.signerName,
          signedAt: now,
          image: input.signature,
        },
      },
      [{ companyId: row.companyId, userId: null, ip: who.ip }],
      'logisticsDelivery.receiveByLink',
    );
  });
}

/**
 * `/api/logistics/linkPhoto`: a receiver outside the platform uploads the photo of the goods.
 * The link's token is the credential, and only while the order waits at the door for its
 * receipt (arrived), so a link cannot be used to store files at any other time.
 */
export async function linkPhoto(
  db: Db,
  token: string | undefined,
  bytes: Buffer | undefined,
  files: { store: FileStore; language: WireLanguage },
  now = Date.now(),
): Promise<UploadResult> {
  if (!LinkReceiptRequest.safeParse({ token }).success) throw new AppError('LOGISTICS_LINK_EXPIRED');
  const deliveryId = await linkDeliveryId(db, token ?? '', now);
  const [row] = await db.select().from(t).where(eq(t.id, deliveryId));
  if (!row) throw new AppError('LOGISTICS_DELIVERY_NOT_FOUND');
  requireState(row, [DeliveryState.Arrived]);
  if (!bytes) throw new AppError('UPLOAD_NO_FILE');
  return writeUpload(files.store, bytes, checkPhoto(bytes, files.language));
}

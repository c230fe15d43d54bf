import { createHash } from 'node:crypto';
import type { WeChatUrl } from '@coldchain/contract';
import { and, eq, ne } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { users } from '../users/users.table';
import { auditSelf } from './profile-audit';
import { type WechatAccount, WechatAccountError } from './wechat-account';

/**
 * The OAuth `state` of a binding: derived from the caller's session token, so that a code
 * obtained for someone else's session (a forged redirect) is refused, across server instances
 * and without storing anything.
 */
export function bindState(accessToken: string): string {
  return createHash('sha256').update(`wechat-bind:${accessToken}`).digest('hex').slice(0, 32);
}

function accessTokenOf(request: FastifyRequest): string {
  const value = request.headers.accesstoken;
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

function requireWechat(wechat: WechatAccount | null): WechatAccount {
  if (!wechat) throw new AppError('WECHAT_NOT_CONFIGURED');
  return wechat;
}

export function weChatAuthorizeUrl(
  wechat: WechatAccount | null,
  request: FastifyRequest,
  redirectUri: string,
): WeChatUrl {
  const state = bindState(accessTokenOf(request));
  return { url: requireWechat(wechat).authorizeUrl(redirectUri, state), state };
}

/** Follow status is a convenience: when WeChat cannot say, the user counts as not following. */
async function followsOrFalse(wechat: WechatAccount, openId: string, request: FastifyRequest) {
  try {
    return await wechat.follows(openId);
  } catch (error) {
    request.log.warn({ err: error }, 'WeChat follow status unavailable');
    return false;
  }
}

/** Exchanges the OAuth code for the openid and stores it on the caller, with the follow status. */
export async function bindWeChat(
  db: Db,
  wechat: WechatAccount | null,
  request: FastifyRequest,
  input: { code: string; state?: string },
) {
  const account = requireWechat(wechat);
  if (input.state !== undefined && input.state !== bindState(accessTokenOf(request))) {
    throw new AppError('WECHAT_BIND_FAILED');
  }
  let openId: string;
  try {
    openId = await account.openIdForCode(input.code);
  } catch (error) {
    if (!(error instanceof WechatAccountError)) throw error;
    request.log.warn({ err: error }, 'WeChat binding failed');
    throw new AppError('WECHAT_BIND_FAILED');
  }
  const followed = await followsOrFalse(account, openId, request);
  const userId = request.auth.userId;
  await db.transaction(async (tx) => {
    const [taken] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.wechatOpenId, openId), ne(users.id, userId)))
      .limit(1);
    if (taken) throw new AppError('WECHAT_TAKEN');
    await tx
      .update(users)
      .set({ wechatOpenId: openId, wechatFollowed: followed })
      .where(eq(users.id, userId));
    await auditSelf(tx, request, { action: 'user.bindWeChat', after: { followed } });
  });
  return { followed };
}

/** Asks WeChat again whether the bound user follows the official account (after following it). */
export async function refreshFollowStatus(db: Db, wechat: WechatAccount | null, request: FastifyRequest) {
  const account = requireWechat(wechat);
  const [user] = await db.select().from(users).where(eq(users.id, request.auth.userId)).limit(1);
  if (!user?.wechatOpenId) return { bound: false, followed: false };
  const followed = await followsOrFalse(account, user.wechatOpenId, request);
  if (followed !== user.wechatFollowed) {
    await db.update(users).set({ wechatFollowed: followed }).where(eq(users.id, user.id));
  }
  return { bound: true, followed };
}

/** Removes the WeChat binding altogether: no WeChat login, no WeChat alarm messages. */
export async function unbindWeChat(db: Db, request: FastifyRequest) {
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ wechatOpenId: null, wechatFollowed: false })
      .where(eq(users.id, request.auth.userId));
    await auditSelf(tx, request, { action: 'user.unbindWeChat' });
  });
}

/** Keeps the binding but stops official-account (alarm) messages to the user. */
export async function unbindWeChatOfficial(db: Db, request: FastifyRequest) {
  await db.transaction(async (tx) => {
    await tx.update(users).set({ wechatFollowed: false }).where(eq(users.id, request.auth.userId));
    await auditSelf(tx, request, { action: 'user.unbindWeChatOfficial' });
  });
}

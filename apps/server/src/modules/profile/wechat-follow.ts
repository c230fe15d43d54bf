import { and, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { createNotice } from '../notices/notices.service';
import { users } from '../users/users.table';

/**
 * WeChat refused an alarm message because the user no longer follows the official account
 * (errcode 43004). The binding stays; the follow state goes false, so the personal centre says
 * "not following" and no further WeChat message is attempted until the user follows the account
 * again and refreshes the status (wechat.service.ts `refreshFollowStatus`). The user is told with
 * a notice in the console, once per change: only the update that turns the state off writes it,
 * so several refused messages of one alarm leave one notice.
 */
export async function markWechatNotFollowing(db: Db, userId: number, companyId: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const changed = await tx
      .update(users)
      .set({ wechatFollowed: false })
      .where(and(eq(users.id, userId), isNotNull(users.wechatOpenId), eq(users.wechatFollowed, true)))
      .returning({ id: users.id });
    if (changed.length === 0) return false;
    await createNotice(tx, {
      companyId,
      userId,
      kind: 'wechat',
      title: { en: 'WeChat alarm messages stopped', cn: '微信报警消息已停止' },
      content: {
        en: 'WeChat refused an alarm message because you no longer follow the official account. Follow it again, then press "Refresh follow status" under WeChat in the personal centre to receive alarm messages on WeChat.',
        cn: '由于您已取消关注公众号，微信拒收了一条报警消息。请重新关注公众号，然后在个人中心的微信页点击“刷新关注状态”，即可再次通过微信接收报警消息。',
      },
    });
    return true;
  });
}

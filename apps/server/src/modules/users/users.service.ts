import type { UserInfo } from '@coldchain/contract';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { idToWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { countUnreadNotices } from '../notices/notices.service';
import { loadSigner } from '../signature/signature.service';
import { users } from './users.table';

export async function getUserInfo(db: Db, auth: Auth): Promise<UserInfo> {
  const [user] = await db.select().from(users).where(eq(users.id, auth.userId)).limit(1);
  if (!user) throw new AppError('LOGIN_EXPIRED');
  // Both flags belong to the company in scope: its audit signature switch and the member's export flag.
  const policy = await loadSigner(db, { userId: auth.userId, companyId: auth.companyId, ip: '' });
  return {
    id: idToWire(user.id),
    relName: user.name,
    account: user.account,
    headImg: user.headImg,
    signCheck: policy.signCheck,
    exportExcel: policy.exportExcel,
    dataViewPath: user.dataViewPath,
    pcAlarmVoice: user.pcAlarmVoice,
    lastCompanyId: auth.companyId === null ? null : idToWire(auth.companyId),
    legalPerson: auth.legalPerson,
    unreadNoticeCount:
      auth.companyId === null ? 0 : await countUnreadNotices(db, auth.companyId, auth.userId),
  };
}

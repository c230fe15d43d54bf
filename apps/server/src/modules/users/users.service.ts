import type { UserInfo } from '@coldchain/contract';
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';
import { plannedOnce } from '../../db/planned-once';
import { AppError } from '../../lib/app-error';
import { idToWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { companies, companyMembers } from '../companies/companies.table';
import { NoticeState, notices } from '../notices/notices.table';
import { users } from './users.table';

interface UserInfoRow {
  id: number | string;
  name: string;
  account: string;
  head_img: string;
  data_view_path: string;
  pc_alarm_voice: boolean;
  is_operator: boolean;
  sign_check: boolean | null;
  export_excel: boolean | null;
  unread: number | string;
}

/**
 * The caller, the company's policy flags and the unread badge, in one statement (it was three:
 * the user, `loadSigner`'s policy, `countUnreadNotices`). The flags are read as `loadSigner`
 * (modules/signature) reads them: the company's audit signature switch, off without a company,
 * and the member's export flag, on without a company (one's own history only).
 */
export async function getUserInfo(db: Db, auth: Auth): Promise<UserInfo> {
  const companyId = auth.companyId;
  const inCompany = sql`${companyId ?? -1}::bigint`;
  const [user] = await queryRows<UserInfoRow>(
    db,
    plannedOnce(sql`select u.id, u.name, u.account, u.head_img, u.is_operator, u.data_view_path, u.pc_alarm_voice,
        c.sign_check, m.export_excel,
        (select count(*) from ${notices} n
          where n.company_id = ${inCompany} and n.user_id = u.id and n.state = ${NoticeState.Unread}::smallint
        ) as unread
      from ${users} u
      left join ${companyMembers} m on m.user_id = u.id and m.company_id = ${inCompany}
      left join ${companies} c on c.id = m.company_id
      where u.id = ${auth.userId}::bigint`),
  );
  if (!user) throw new AppError('LOGIN_EXPIRED');
  return {
    id: idToWire(Number(user.id)),
    relName: user.name,
    account: user.account,
    headImg: user.head_img,
    signCheck: user.sign_check ?? false,
    exportExcel: user.export_excel ?? true,
    dataViewPath: user.data_view_path,
    pcAlarmVoice: user.pc_alarm_voice,
    lastCompanyId: companyId === null ? null : idToWire(companyId),
    legalPerson: auth.legalPerson,
    unreadNoticeCount: companyId === null ? 0 : Number(user.unread),
    isOperator: user.is_operator,
  };
}

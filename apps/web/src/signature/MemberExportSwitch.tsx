import type { MemberExportRequest, MemberView } from '@coldchain/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Switch, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { request } from '../api/request';
import { OrgKey } from '../pages/org/queries';
import { QueryKey } from '../session/queries';

export const MEMBER_EXPORT_PATH = '/api/personnel/setExportExcel';

/**
 * The company administrator's "may export" switch on a member's row (spec section 6 flag). The
 * server enforces it on every export; the member's export buttons follow their session's
 * `exportExcel`, read again here in case the administrator changed their own.
 */
export function MemberExportSwitch({ member }: { member: MemberView }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const save = useMutation({
    mutationFn: (body: MemberExportRequest) => request<null>(MEMBER_EXPORT_PATH, body),
    onSuccess: () => {
      void message.success(t('org.signature.exportSaved'));
      void client.invalidateQueries({ queryKey: OrgKey.all });
      void client.invalidateQueries({ queryKey: QueryKey.userInfo });
    },
  });
  return (
    <Tooltip title={t('org.signature.exportHint')}>
      <Switch
        size="small"
        checked={member.exportExcel}
        loading={save.isPending}
        checkedChildren={t('org.signature.exportOn')}
        unCheckedChildren={t('org.signature.exportOff')}
        aria-label={t('org.signature.exportLabel', { name: member.name })}
        // The request wrapper already showed why a refused change failed.
        onChange={(enabled) => save.mutateAsync({ userId: member.userId, enabled }).catch(() => {})}
        data-testid={`member-export-${member.userId}`}
      />
    </Tooltip>
  );
}

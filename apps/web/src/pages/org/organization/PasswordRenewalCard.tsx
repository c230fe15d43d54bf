import { PASSWORD_RENEWAL_DAYS, type PasswordRenewalRequest } from '@coldchain/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Card, Flex, Popconfirm, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { request } from '../../../api/request';
import { useCompanies, useCompanyId } from '../../../session/queries';

/** docs/API.md "Login security": the company's password renewal setting. */
export const RENEWAL_PATHS = {
  get: '/api/loginSecurity/getPasswordRenewal',
  set: '/api/loginSecurity/setPasswordRenewal',
} as const;

interface PasswordRenewal {
  enabled: boolean;
  days: number;
}

const renewalKey = (companyId: string | null) => ['org', 'passwordRenewal', companyId] as const;

/**
 * Whether the user administers the company in scope. The server refuses the setting to anyone
 * else (request.auth.isAdmin), so the card follows the same flag from the company list.
 */
export function useIsCompanyAdmin(): boolean {
  const { data: companies } = useCompanies();
  const companyId = useCompanyId();
  const company = companies?.find((c) => c.id === companyId) ?? companies?.find((c) => c.current);
  return company?.isAdmin ?? false;
}

/**
 * Company administrators turn on "change the password every 90 days" (spec section 9). The
 * switch asks first, because turning it on sends members with older passwords to the
 * change-password page at their next login.
 */
export function PasswordRenewalCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  const setting = useQuery({
    queryKey: renewalKey(companyId),
    queryFn: () => request<PasswordRenewal>(RENEWAL_PATHS.get),
    retry: false,
  });
  const save = useMutation({
    mutationFn: (body: PasswordRenewalRequest) => request<null>(RENEWAL_PATHS.set, body),
    onSuccess: (_, body) => {
      void message.success(t(body.enabled ? 'org.renewal.savedOn' : 'org.renewal.savedOff'));
      return queryClient.invalidateQueries({ queryKey: renewalKey(companyId) });
    },
  });
  const enabled = setting.data?.enabled ?? false;
  const days = setting.data?.days ?? PASSWORD_RENEWAL_DAYS;

  return (
    <Card title={t('org.renewal.title')} style={{ marginTop: 16 }} data-testid="password-renewal-card">
      <Flex vertical gap="small">
        <Flex gap="small" align="center">
          <Popconfirm
            title={t(enabled ? 'org.renewal.confirmOff' : 'org.renewal.confirmOn', { days })}
            okText={t('org.confirm')}
            cancelText={t('org.cancel')}
            disabled={!setting.data}
            // The request wrapper already showed why a refused change failed.
            onConfirm={() => save.mutateAsync({ enabled: !enabled }).catch(() => {})}
          >
            <Switch
              checked={enabled}
              loading={setting.isFetching || save.isPending}
              disabled={!setting.data}
              aria-label={t('org.renewal.label', { days })}
              data-testid="password-renewal-switch"
            />
          </Popconfirm>
          <Typography.Text>{t('org.renewal.label', { days })}</Typography.Text>
        </Flex>
        <Typography.Text type="secondary">{t('org.renewal.hint', { days })}</Typography.Text>
      </Flex>
    </Card>
  );
}

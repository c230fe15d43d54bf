import type { AuditSignatureRequest, AuditSignatureSetting } from '@coldchain/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Card, Flex, Popconfirm, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { request } from '../api/request';
import { QueryKey, useCompanyId } from '../session/queries';

/** docs/API.md "Audit signature": the company's switch. */
export const AUDIT_SIGNATURE_PATHS = {
  get: '/api/company/getAuditSignature',
  set: '/api/company/setAuditSignature',
} as const;

const settingKey = (companyId: string | null) => ['signature', 'auditSignature', companyId] as const;

/**
 * The company administrator turns audit signature on or off (spec sections 5 and 6). Asks first,
 * since the switch changes what every member must type to resolve an alarm or export. Saved, it
 * refreshes the session's `signCheck`, which draws the shared signature field.
 */
export function AuditSignatureCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  const setting = useQuery({
    queryKey: settingKey(companyId),
    queryFn: () => request<AuditSignatureSetting>(AUDIT_SIGNATURE_PATHS.get),
    retry: false,
  });
  const save = useMutation({
    mutationFn: (body: AuditSignatureRequest) => request<null>(AUDIT_SIGNATURE_PATHS.set, body),
    onSuccess: (_, body) => {
      void message.success(t(body.enabled ? 'org.signature.savedOn' : 'org.signature.savedOff'));
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: settingKey(companyId) }),
        queryClient.invalidateQueries({ queryKey: QueryKey.userInfo }),
      ]);
    },
  });
  const enabled = setting.data?.enabled ?? false;

  return (
    <Card title={t('org.signature.title')} style={{ marginTop: 16 }} data-testid="audit-signature-card">
      <Flex vertical gap="small">
        <Flex gap="small" align="center">
          <Popconfirm
            title={t(enabled ? 'org.signature.confirmOff' : 'org.signature.confirmOn')}
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
              aria-label={t('org.signature.label')}
              data-testid="audit-signature-switch"
            />
          </Popconfirm>
          <Typography.Text>{t('org.signature.label')}</Typography.Text>
        </Flex>
        <Typography.Text type="secondary">{t('org.signature.hint')}</Typography.Text>
      </Flex>
    </Card>
  );
}

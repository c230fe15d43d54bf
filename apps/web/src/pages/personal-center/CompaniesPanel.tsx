import type { UserCompany } from '@coldchain/contract';
import { Button, Card, Descriptions, Empty, Flex, Popconfirm, Spin, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../router/notify';
import { useCompanies, useCompanyId } from '../../session/queries';
import { useIndustries } from '../org/queries';
import { useLeaveCompany } from './company-calls';
import { EditCompanyModal } from './EditCompanyModal';

/**
 * "Companies" (我的企业): every company the user belongs to, with its information. The administrator of
 * the company in scope edits it (the server edits only that one); any member may leave, except the
 * legal person and the only administrator, who are told why instead (the server refuses them too).
 */
export function CompaniesPanel() {
  const { t } = useTranslation();
  const companies = useCompanies();
  const companyId = useCompanyId();
  const [editing, setEditing] = useState<UserCompany | null>(null);
  if (companies.isPending) return <Spin />;
  const list = companies.data ?? [];
  if (list.length === 0) return <Empty description={t('profile.companies.none')} />;
  // The header's companyId decides the scope; the server's `current` flag is the fallback.
  const inScope = (c: UserCompany) => (companyId ? c.id === companyId : c.current);
  return (
    <Flex vertical gap="middle">
      {list.map((company) => (
        <CompanyCard
          key={company.id}
          company={company}
          inScope={inScope(company)}
          onEdit={() => setEditing(company)}
        />
      ))}
      <EditCompanyModal company={editing} onClose={() => setEditing(null)} />
    </Flex>
  );
}

function CompanyCard({
  company,
  inScope,
  onEdit,
}: {
  company: UserCompany;
  inScope: boolean;
  onEdit: () => void;
}) {
  const { t } = useTranslation();
  const notify = useNotify();
  const industries = useIndustries();
  const leave = useLeaveCompany();
  const industry = industries.data?.find((i) => i.value === company.industry)?.label ?? company.industry;
  const cannotLeave = company.legalPerson
    ? t('profile.companies.legalPersonStays')
    : company.onlyAdmin
      ? t('profile.companies.onlyAdminStays')
      : null;

  const confirmLeave = async () => {
    try {
      await leave.mutateAsync(company.id);
      notify({ type: 'success', content: t('profile.companies.left', { name: company.name }), duration: 3 });
    } catch {
      // The request wrapper showed the server's reason.
    }
  };

  const leaveButton = (
    <Button
      danger
      size="small"
      disabled={!!cannotLeave}
      loading={leave.isPending}
      data-testid={`company-leave-${company.id}`}
    >
      {t('profile.companies.leave')}
    </Button>
  );

  return (
    <Card
      size="small"
      data-testid={`company-card-${company.id}`}
      title={
        <Flex gap="small" wrap align="center">
          <Typography.Text strong ellipsis style={{ maxWidth: '100%' }}>
            {company.name}
          </Typography.Text>
          {inScope ? <Tag color="blue">{t('profile.companies.current')}</Tag> : null}
          {company.isAdmin ? <Tag color="gold">{t('profile.companies.admin')}</Tag> : null}
          {company.legalPerson ? <Tag>{t('profile.companies.legalPerson')}</Tag> : null}
        </Flex>
      }
    >
      <Descriptions
        size="small"
        column={1}
        items={[
          { key: 'industry', label: t('profile.companies.industry'), children: industry || '-' },
          { key: 'region', label: t('profile.companies.region'), children: company.region || '-' },
          { key: 'address', label: t('profile.companies.address'), children: company.address || '-' },
        ]}
      />
      <Flex gap="small" wrap justify="end" style={{ marginTop: 8 }}>
        {inScope && company.isAdmin ? (
          <Button size="small" onClick={onEdit} data-testid={`company-edit-${company.id}`}>
            {t('profile.companies.edit')}
          </Button>
        ) : null}
        {cannotLeave ? (
          leaveButton
        ) : (
          <Popconfirm
            title={t('profile.companies.confirmLeave', { name: company.name })}
            okText={t('profile.companies.leave')}
            cancelText={t('profile.companies.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={confirmLeave}
          >
            {leaveButton}
          </Popconfirm>
        )}
      </Flex>
      {cannotLeave ? (
        <Typography.Text
          type="secondary"
          style={{ display: 'block', textAlign: 'end' }}
          data-testid="company-cannot-leave"
        >
          {cannotLeave}
        </Typography.Text>
      ) : null}
    </Card>
  );
}

import { Button, Form, Input, Result, Select, Tabs } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate } from 'react-router';
import { useAccessToken, useCompanies } from '../../../session/queries';
import { setCompanyId } from '../../../session/storage';
import { PublicFrame } from '../components/PublicFrame';
import { useCreateCompany, useIndustries, useJoinOrganize } from '../queries';
import { departmentCodeRule, organizationNameRule } from '../rules';

interface JoinValues {
  code: string;
  remark?: string;
}
interface CompanyValues {
  name: string;
  industry?: string;
  region?: string;
  address?: string;
}

/**
 * `/addTeam` (no layout, login needed): apply to a department with its 12-digit code, or create
 * a company (the first tab for a user who belongs to none).
 */
export default function AddTeamPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const token = useAccessToken();
  const companies = useCompanies();
  const industries = useIndustries();
  const join = useJoinOrganize();
  const create = useCreateCompany();
  const [applied, setApplied] = useState(false);

  if (!token) return <Navigate to={`/login?redirect=${encodeURIComponent('/addTeam')}`} replace />;

  const apply = async (values: JoinValues) => {
    try {
      await join.mutateAsync({ code: values.code.trim(), remark: values.remark?.trim() ?? '' });
      setApplied(true);
    } catch {
      // The request wrapper showed the reason (unknown code, already a member...).
    }
  };

  const found = async (values: CompanyValues) => {
    try {
      const { id } = await create.mutateAsync({
        name: values.name.trim(),
        ...(values.industry ? { industry: values.industry } : {}),
        ...(values.region?.trim() ? { region: values.region.trim() } : {}),
        ...(values.address?.trim() ? { address: values.address.trim() } : {}),
      });
      // The new company is the one in scope from now on (the server made it the last used one).
      setCompanyId(id);
      navigate('/home', { replace: true });
    } catch {
      // Shown by the request wrapper.
    }
  };

  if (applied) {
    return (
      <PublicFrame title={t('org.addTeam.title')}>
        <Result
          status="success"
          title={<span data-testid="join-applied">{t('org.addTeam.applied')}</span>}
          extra={<Link to="/home">{t('common.backHome')}</Link>}
        />
      </PublicFrame>
    );
  }

  const joinForm = (
    <Form<JoinValues> layout="vertical" onFinish={apply}>
      <Form.Item
        name="code"
        label={t('org.addTeam.code')}
        extra={t('org.addTeam.codeHint')}
        rules={[{ required: true, message: t('org.rule.departmentCode') }, departmentCodeRule(t)]}
      >
        <Input inputMode="numeric" maxLength={12} data-testid="join-code" />
      </Form.Item>
      <Form.Item name="remark" label={t('org.join.remark')}>
        <Input.TextArea maxLength={255} rows={3} data-testid="join-remark" />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={join.isPending} data-testid="join-submit">
        {t('org.addTeam.apply')}
      </Button>
    </Form>
  );

  const companyForm = (
    <Form<CompanyValues> layout="vertical" onFinish={found}>
      <Form.Item
        name="name"
        label={t('org.addTeam.companyName')}
        rules={[{ required: true, message: t('org.rule.organizationName') }, organizationNameRule(t)]}
      >
        <Input data-testid="company-name" />
      </Form.Item>
      <Form.Item name="industry" label={t('org.addTeam.industry')}>
        <Select<string>
          allowClear
          loading={industries.isPending}
          options={industries.data ?? []}
          data-testid="company-industry"
        />
      </Form.Item>
      <Form.Item name="region" label={t('org.addTeam.region')}>
        <Input maxLength={255} data-testid="company-region" />
      </Form.Item>
      <Form.Item name="address" label={t('org.field.address')}>
        <Input maxLength={255} data-testid="company-address" />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={create.isPending} data-testid="company-submit">
        {t('org.addTeam.create')}
      </Button>
    </Form>
  );

  const hasCompany = (companies.data?.length ?? 0) > 0;
  return (
    <PublicFrame title={t('org.addTeam.title')}>
      {companies.isPending ? null : (
        <Tabs
          defaultActiveKey={hasCompany ? 'join' : 'create'}
          items={[
            {
              key: 'join',
              label: <span data-testid="tab-join">{t('org.addTeam.joinTab')}</span>,
              children: joinForm,
            },
            {
              key: 'create',
              label: <span data-testid="tab-create">{t('org.addTeam.createTab')}</span>,
              children: companyForm,
            },
          ]}
        />
      )}
      {hasCompany ? (
        <Button type="link" onClick={() => navigate('/home')} style={{ paddingLeft: 0 }}>
          {t('common.backHome')}
        </Button>
      ) : null}
    </PublicFrame>
  );
}

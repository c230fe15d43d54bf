import type { UserCompany } from '@coldchain/contract';
import { Form, Input, Modal, Select } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../router/notify';
import { useIndustries } from '../org/queries';
import { organizationNameRule } from '../org/rules';
import { useEditCompany } from './company-calls';

interface CompanyValues {
  name: string;
  industry?: string;
  region?: string;
  address?: string;
}

/**
 * The company administrator edits the company in scope (spec section 3 "Company: name, industry,
 * location, address"): its name, industry and location, region and detailed address.
 */
export function EditCompanyModal({ company, onClose }: { company: UserCompany | null; onClose: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const [form] = Form.useForm<CompanyValues>();
  const industries = useIndustries();
  const save = useEditCompany();

  useEffect(() => {
    if (company) {
      form.setFieldsValue({
        name: company.name,
        industry: company.industry || undefined,
        region: company.region ?? '',
        address: company.address,
      });
    }
  }, [company, form]);

  const submit = async (values: CompanyValues) => {
    try {
      await save.mutateAsync({
        name: values.name.trim(),
        // Sent even when emptied, so clearing a field clears it on the server.
        industry: values.industry ?? '',
        region: values.region?.trim() ?? '',
        address: values.address?.trim() ?? '',
      });
      notify({ type: 'success', content: t('profile.companies.saved'), duration: 3 });
      onClose();
    } catch {
      // The request wrapper showed the server's reason; the dialog stays open for a correction.
    }
  };

  return (
    <Modal
      open={!!company}
      title={t('profile.companies.editTitle')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('profile.companies.save')}
      cancelText={t('profile.companies.cancel')}
      okButtonProps={{ loading: save.isPending, 'data-testid': 'company-edit-submit' } as never}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submit} data-testid="company-edit-form">
        <Form.Item
          name="name"
          label={t('profile.companies.name')}
          rules={[
            { required: true, whitespace: true, message: t('org.rule.organizationName') },
            organizationNameRule(t),
          ]}
        >
          <Input data-testid="company-edit-name" />
        </Form.Item>
        <Form.Item name="industry" label={t('profile.companies.industry')}>
          <Select<string>
            allowClear
            loading={industries.isPending}
            options={industries.data ?? []}
            data-testid="company-edit-industry"
          />
        </Form.Item>
        <Form.Item name="region" label={t('profile.companies.region')}>
          <Input
            maxLength={255}
            placeholder={t('profile.companies.regionHint')}
            data-testid="company-edit-region"
          />
        </Form.Item>
        <Form.Item name="address" label={t('profile.companies.address')}>
          <Input maxLength={255} data-testid="company-edit-address" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

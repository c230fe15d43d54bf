import type { OperatorCompanyView } from '@coldchain/contract';
import {
  App,
  Button,
  Descriptions,
  Divider,
  Drawer,
  Form,
  Input,
  InputNumber,
  Popconfirm,
  Space,
  Tag,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeviceType } from '../../../layout/useDeviceType';
import { formatTime } from '../../reports/format';
import { useGrantCredits, useSetCompanyDisabled } from '../api';
import { ServicesEditor } from './ServicesEditor';
import { SupportDevices } from './SupportDevices';

interface GrantValues {
  amount: number;
  note: string;
}

/** One company for the operator: its figures, services, a credit grant and disabling. */
export function CompanyDrawer({ company, onClose }: { company: OperatorCompanyView; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const mobile = useDeviceType() === 'mobile';
  const grant = useGrantCredits();
  const disable = useSetCompanyDisabled();
  const [form] = Form.useForm<GrantValues>();
  const [viewing, setViewing] = useState(false);
  const supportOpen = company.supportAccessUntil !== null && company.supportAccessUntil > Date.now();

  const onGrant = (values: GrantValues) =>
    grant
      .mutateAsync({ id: company.id, amount: values.amount, note: values.note })
      .then(() => {
        form.resetFields();
        void message.success(t('operator.credits.granted'));
      })
      .catch(() => undefined);

  return (
    <Drawer open onClose={onClose} title={company.name} size={mobile ? '100%' : 640} destroyOnHidden>
      <div data-testid="operator-company-drawer">
        <Descriptions column={1} size="small" bordered>
          <Descriptions.Item label={t('operator.company.state')}>
            {company.disabled ? (
              <Tag color="red">{t('operator.company.disabled')}</Tag>
            ) : (
              <Tag color="green">{t('operator.company.enabled')}</Tag>
            )}
          </Descriptions.Item>
          <Descriptions.Item label={t('operator.company.credits')}>
            <span data-testid="company-credits">{company.credits}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('operator.company.members')}>{company.memberCount}</Descriptions.Item>
          <Descriptions.Item label={t('operator.company.devices')}>{company.deviceCount}</Descriptions.Item>
          <Descriptions.Item label={t('operator.company.created')}>
            {formatTime(company.createTime)}
          </Descriptions.Item>
          <Descriptions.Item label={t('operator.company.support')}>
            {company.supportAccessUntil
              ? formatTime(company.supportAccessUntil)
              : t('operator.company.noSupport')}
          </Descriptions.Item>
        </Descriptions>
        <Divider />
        <ServicesEditor
          key={company.services.map((s) => `${s.tag}${s.expireTime}`).join()}
          company={company}
        />
        <Divider />
        <Form form={form} layout="vertical" onFinish={onGrant} requiredMark={false}>
          <Form.Item
            name="amount"
            label={t('operator.credits.amount')}
            rules={[{ required: true, message: t('operator.credits.amountRule') }]}
          >
            <InputNumber
              min={1}
              max={1_000_000}
              precision={0}
              style={{ width: '100%' }}
              data-testid="credits-amount"
            />
          </Form.Item>
          <Form.Item
            name="note"
            label={t('operator.credits.note')}
            rules={[{ required: true, whitespace: true, message: t('operator.credits.noteRule') }]}
          >
            <Input maxLength={200} data-testid="credits-note" />
          </Form.Item>
          <Button htmlType="submit" type="primary" loading={grant.isPending} data-testid="credits-grant">
            {t('operator.credits.grant')}
          </Button>
        </Form>
        <Divider />
        <Space wrap>
          {supportOpen && (
            <Button onClick={() => setViewing(true)} data-testid="support-devices">
              {t('operator.support.view')}
            </Button>
          )}
          <Popconfirm
            title={t(
              company.disabled ? 'operator.company.enableConfirm' : 'operator.company.disableConfirm',
              {
                name: company.name,
              },
            )}
            okText={t('operator.confirm')}
            cancelText={t('operator.cancel')}
            onConfirm={() => disable.mutate({ id: company.id, disabled: !company.disabled })}
          >
            <Button danger={!company.disabled} data-testid="company-toggle-disabled">
              {t(company.disabled ? 'operator.company.enable' : 'operator.company.disable')}
            </Button>
          </Popconfirm>
        </Space>
        {viewing && <SupportDevices companyId={company.id} onClose={() => setViewing(false)} />}
      </div>
    </Drawer>
  );
}

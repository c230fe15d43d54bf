import type { DevicePermissionLevel } from '@coldchain/contract';
import { App, Form, Radio, Select, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { BatchModal, type BatchModalProps } from './BatchModal';
import { useBatchPermission, useDevicePermissions, useMemberOptions } from './batch-queries';

interface Values {
  userIds: string[];
  permission: DevicePermissionLevel;
}

/**
 * Batch permission (spec section 6: device permissions per user, view or edit): gives the chosen
 * people the right on every selected monitor, or takes it away with "none".
 */
export function BatchPermissionModal({ deviceIds, open, onClose }: BatchModalProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const members = useMemberOptions(open);
  const grant = useBatchPermission();
  // With one monitor selected, the dialog also shows who already holds a right on it.
  const current = useDevicePermissions(open && deviceIds.length === 1 ? deviceIds[0]! : null);

  const submit = async (values: Values) => {
    try {
      await grant.mutateAsync({ deviceIds, userIds: values.userIds, permission: values.permission });
      void message.success(t('devices.batch.permission.done', { count: deviceIds.length }));
      onClose(true);
    } catch {
      // Shown by the request wrapper.
    }
  };

  return (
    <BatchModal<Values>
      open={open}
      onClose={onClose}
      title={t('devices.batch.permission.title', { count: deviceIds.length })}
      okText={t('devices.batch.submit')}
      submitTestId="batch-permission-submit"
      pending={grant.isPending}
      form={form}
      onFinish={submit}
      initialValues={{ permission: 'view' }}
      intro={
        current.data && (
          <div data-testid="device-permissions-current" style={{ marginBottom: 16 }}>
            <Typography.Text type="secondary">{t('devices.batch.permission.current')}: </Typography.Text>
            {current.data.length === 0 && (
              <Typography.Text>{t('devices.batch.permission.nobody')}</Typography.Text>
            )}
            {current.data.map((p) => (
              <Tag key={p.userId}>
                {p.name} · {t(`devices.batch.permission.${p.permission}`)}
              </Tag>
            ))}
          </div>
        )
      }
    >
      <Form.Item
        name="userIds"
        label={t('devices.batch.permission.users')}
        rules={[
          { required: true, type: 'array', min: 1, message: t('devices.batch.permission.usersRequired') },
        ]}
      >
        <Select
          mode="multiple"
          optionFilterProp="label"
          loading={members.isLoading}
          data-testid="batch-permission-users"
          options={(members.data ?? []).map((m) => ({ value: m.id, label: m.name }))}
        />
      </Form.Item>
      <Form.Item name="permission" label={t('devices.batch.permission.level')}>
        <Radio.Group data-testid="batch-permission-level">
          <Radio value="view">{t('devices.batch.permission.view')}</Radio>
          <Radio value="edit">{t('devices.batch.permission.edit')}</Radio>
          <Radio value="none">{t('devices.batch.permission.none')}</Radio>
        </Radio.Group>
      </Form.Item>
    </BatchModal>
  );
}

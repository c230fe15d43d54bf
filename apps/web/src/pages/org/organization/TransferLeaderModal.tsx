import type { DepartmentNode } from '@coldchain/contract';
import { Alert, Form, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useMemberOptions, useTransferLeader } from '../queries';

/**
 * Hands the department to another member. Spec section 4: the former person in charge loses
 * the related settings and notifications, which the dialog says before it is confirmed.
 */
export function TransferLeaderModal({
  department,
  onClose,
}: {
  department: DepartmentNode | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ userId: string }>();
  const options = useMemberOptions(department?.id, !!department);
  const transfer = useTransferLeader();

  const submit = async ({ userId }: { userId: string }) => {
    if (!department) return;
    try {
      await transfer.mutateAsync({ id: department.id, userId });
      onClose();
    } catch {
      // Shown by the request wrapper.
    }
  };

  return (
    <Modal
      open={!!department}
      title={t('org.transfer.title', { name: department?.name ?? '' })}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('org.transfer.submit')}
      cancelText={t('org.cancel')}
      confirmLoading={transfer.isPending}
      okButtonProps={{ 'data-testid': 'transfer-submit' }}
      destroyOnHidden
    >
      <Alert type="warning" showIcon title={t('org.transfer.warning')} style={{ marginBottom: 16 }} />
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item
          name="userId"
          label={t('org.transfer.newLeader')}
          rules={[{ required: true, message: t('org.transfer.required') }]}
        >
          <Select<string>
            showSearch
            optionFilterProp="label"
            loading={options.isPending}
            data-testid="transfer-member"
            options={(options.data ?? [])
              .filter((o) => o.id !== department?.leaderId)
              .map((o) => ({ value: o.id, label: o.name }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

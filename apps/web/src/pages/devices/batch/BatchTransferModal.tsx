import { App, Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { flattenGroups } from '../../groups/GroupDialogs';
import { useDepartmentGroups } from '../../groups/queries';
import { BatchModal, type BatchModalProps } from './BatchModal';
import { useBatchTransfer } from './batch-queries';

interface Values {
  departmentId: string;
  groupId?: string;
}

/**
 * Batch transfer (spec section 2 dialogs): the selected monitors move to a department of the
 * caller's scope, optionally into one of its groups; without a group they keep theirs only if it
 * is of that department.
 */
export function BatchTransferModal({ deviceIds, open, onClose }: BatchModalProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const departments = useDepartmentGroups(open);
  const transfer = useBatchTransfer();
  const departmentId = Form.useWatch('departmentId', form);
  const chosen = departments.data?.find((d) => d.id === departmentId);

  const submit = async (values: Values) => {
    try {
      await transfer.mutateAsync({
        deviceIds,
        departmentId: values.departmentId,
        ...(values.groupId ? { groupId: values.groupId } : {}),
      });
      void message.success(t('devices.batch.transfer.done', { count: deviceIds.length }));
      onClose(true);
    } catch {
      // Shown by the request wrapper.
    }
  };

  return (
    <BatchModal<Values>
      open={open}
      onClose={onClose}
      title={t('devices.batch.transfer.title', { count: deviceIds.length })}
      okText={t('devices.batch.submit')}
      submitTestId="batch-transfer-submit"
      pending={transfer.isPending}
      form={form}
      onFinish={submit}
    >
      <Form.Item
        name="departmentId"
        label={t('devices.batch.transfer.department')}
        rules={[{ required: true, message: t('devices.batch.transfer.departmentRequired') }]}
      >
        <Select
          data-testid="batch-transfer-department"
          loading={departments.isLoading}
          onChange={() => form.setFieldValue('groupId', undefined)}
          options={(departments.data ?? []).map((d) => ({
            value: d.id,
            label: `${'\u2003'.repeat(d.level - 1)}${d.name}`,
          }))}
        />
      </Form.Item>
      <Form.Item
        name="groupId"
        label={t('devices.batch.transfer.group')}
        extra={t('devices.batch.transfer.groupHint')}
      >
        <Select
          allowClear
          data-testid="batch-transfer-group"
          placeholder={t('devices.batch.transfer.noGroup')}
          options={flattenGroups(chosen?.groups ?? []).map(({ group, depth }) => ({
            value: group.id,
            label: `${'\u2003'.repeat(depth)}${group.name}`,
          }))}
        />
      </Form.Item>
    </BatchModal>
  );
}

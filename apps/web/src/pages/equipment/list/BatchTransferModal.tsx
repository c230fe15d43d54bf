import { App, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { BatchModal } from '../../devices/batch/BatchModal';
import { useBatchTransfer } from '../api';
import { DepartmentSelect } from '../components/DepartmentSelect';

interface Values {
  departmentId: string;
  remarks?: string;
}

/**
 * Batch transfer of equipment to another department. The server writes one transfer record per
 * piece (operator, time, from and to department), so each detail page's timeline shows the move.
 */
export function EquipmentTransferModal({
  equipmentIds,
  open,
  onClose,
}: {
  equipmentIds: string[];
  open: boolean;
  onClose: (done: boolean) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const transfer = useBatchTransfer();

  const submit = async (values: Values) => {
    try {
      await transfer.mutateAsync({
        ids: equipmentIds,
        toDepartmentId: values.departmentId,
        ...(values.remarks?.trim() ? { remarks: values.remarks.trim() } : {}),
      });
      void message.success(t('equipment.transfer.done', { count: equipmentIds.length }));
      onClose(true);
    } catch {
      // Shown by the request wrapper.
    }
  };

  return (
    <BatchModal<Values>
      open={open}
      onClose={onClose}
      title={t('equipment.transfer.title', { count: equipmentIds.length })}
      okText={t('equipment.common.submit')}
      submitTestId="equipment-transfer-submit"
      pending={transfer.isPending}
      form={form}
      onFinish={submit}
    >
      <Form.Item
        name="departmentId"
        label={t('equipment.transfer.department')}
        rules={[{ required: true, message: t('equipment.transfer.departmentRequired') }]}
      >
        <DepartmentSelect data-testid="equipment-transfer-department" />
      </Form.Item>
      <Form.Item
        name="remarks"
        label={t('equipment.field.remarks')}
        rules={[{ max: 255, message: t('equipment.rule.remarksTooLong', { max: 255 }) }]}
      >
        <Input.TextArea rows={2} maxLength={255} data-testid="equipment-transfer-remarks" />
      </Form.Item>
    </BatchModal>
  );
}

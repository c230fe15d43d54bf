import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';

/** Asks for the reason the company will read before rejecting an order or an application. */
export function RejectDialog({
  open,
  title,
  onReject,
  onClose,
}: {
  open: boolean;
  title: string;
  onReject: (reason: string) => Promise<unknown>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ reason: string }>();
  return (
    <Modal
      open={open}
      destroyOnHidden
      title={title}
      okText={t('invoices.operator.reject')}
      cancelText={t('invoices.common.cancel')}
      okButtonProps={{ danger: true, ...({ 'data-testid': 'reject-submit' } as Record<string, unknown>) }}
      onCancel={onClose}
      onOk={async () => {
        // An invalid form shows its own message; nothing more to do.
        const values = await form.validateFields().catch(() => null);
        if (!values) return;
        const { reason } = values;
        const done = await onReject(reason.trim())
          .then(() => true)
          .catch(() => false);
        if (done) onClose();
      }}
    >
      <Form form={form} layout="vertical">
        <Form.Item
          name="reason"
          label={t('invoices.operator.reason')}
          rules={[{ required: true, whitespace: true, message: t('invoices.operator.reasonRequired') }]}
        >
          <Input.TextArea maxLength={200} showCount rows={3} data-testid="reject-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

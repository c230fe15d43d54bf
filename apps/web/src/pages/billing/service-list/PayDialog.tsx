import type { OrderView } from '@coldchain/contract';
import { Alert, Button, Divider, Form, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatAmount } from '../money';
import { FileField } from './FileField';
import { usePayByTransfer, usePaymentOptions, usePayOnline } from './queries';

/**
 * Paying a pending order: online through the checkout when the server has a provider, else (or
 * by choice) a bank transfer whose proof image the operator checks before approving.
 */
export function PayDialog({ order, onClose }: { order: OrderView | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ proofImage?: string }>();
  const options = usePaymentOptions();
  const transfer = usePayByTransfer();
  const online = usePayOnline();
  if (!order) return null;
  const due = order.amount + (order.lateFee ?? 0);
  return (
    <Modal
      open
      destroyOnHidden
      title={t('invoices.pay.title', { orderNo: order.orderNo })}
      footer={null}
      onCancel={onClose}
    >
      <Typography.Paragraph data-testid="pay-amount">
        {t('invoices.pay.amount', { amount: formatAmount(due) })}
        {order.lateFee ? ` (${t('invoices.pay.lateFeeIncluded', { fee: formatAmount(order.lateFee) })})` : ''}
      </Typography.Paragraph>
      {options.data?.online ? (
        <>
          <Button
            type="primary"
            block
            loading={online.isPending}
            data-testid="pay-online"
            onClick={async () => {
              const result = await online.mutateAsync({ id: order.id }).catch(() => null);
              if (result) window.location.assign(result.url);
            }}
          >
            {t('invoices.pay.online')}
          </Button>
          <Divider plain>{t('invoices.pay.or')}</Divider>
        </>
      ) : null}
      <Typography.Title level={5}>{t('invoices.pay.transfer')}</Typography.Title>
      {options.data?.transferDetails ? (
        <Alert type="info" showIcon message={options.data.transferDetails} style={{ marginBottom: 12 }} />
      ) : null}
      <Form
        form={form}
        layout="vertical"
        onFinish={async (values) => {
          const done = await transfer
            .mutateAsync({ id: order.id, proofImage: values.proofImage! })
            .catch(() => null);
          if (done) onClose();
        }}
      >
        <Form.Item
          name="proofImage"
          label={t('invoices.pay.proof')}
          extra={t('invoices.pay.proofHint')}
          rules={[{ required: true, message: t('invoices.pay.proofRequired') }]}
        >
          <FileField purpose="invoice" accept="image/png,image/jpeg" testId="pay-proof" />
        </Form.Item>
        <Button htmlType="submit" block loading={transfer.isPending} data-testid="pay-transfer-submit">
          {t('invoices.pay.sendProof')}
        </Button>
      </Form>
    </Modal>
  );
}

import { Form, InputNumber, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatAmount } from '../money';
import { useBuyCredits, usePaymentOptions } from './queries';

/** A credit top-up order: whole message credits at the unit price; paid like any order. */
export function BuyCreditsDialog({ open, onClose }: { open: boolean; onClose: (orderId?: string) => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ credits: number }>();
  const credits = Form.useWatch('credits', form) ?? 0;
  const options = usePaymentOptions();
  const buy = useBuyCredits();
  const unitSen = Math.round((options.data?.creditUnitPrice ?? 0) * 100);
  return (
    <Modal
      open={open}
      destroyOnHidden
      title={t('invoices.credits.title')}
      okText={t('invoices.credits.submit')}
      cancelText={t('invoices.common.cancel')}
      confirmLoading={buy.isPending}
      okButtonProps={{ ...({ 'data-testid': 'buy-credits-submit' } as Record<string, string>) }}
      onCancel={() => onClose()}
      onOk={async () => {
        const values = await form.validateFields().catch(() => null);
        if (!values) return;
        const order = await buy.mutateAsync({ credits: values.credits }).catch(() => null);
        if (order) onClose(order.id);
      }}
    >
      <Form form={form} layout="vertical" initialValues={{ credits: 1000 }}>
        <Form.Item
          name="credits"
          label={t('invoices.credits.count')}
          rules={[
            {
              required: true,
              type: 'integer',
              min: 100,
              max: 1_000_000,
              message: t('invoices.credits.rule'),
            },
          ]}
        >
          <InputNumber
            min={100}
            max={1_000_000}
            step={100}
            precision={0}
            style={{ width: '100%' }}
            data-testid="buy-credits-count"
          />
        </Form.Item>
      </Form>
      <Typography.Text data-testid="buy-credits-total">
        {t('invoices.credits.total', { amount: formatAmount((credits * unitSen) / 100) })}
      </Typography.Text>
    </Modal>
  );
}

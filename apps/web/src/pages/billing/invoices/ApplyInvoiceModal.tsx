import { type ApplyInvoiceRequest, InvoiceTypes, MIN_INVOICE_SEN } from '@coldchain/contract';
import { Alert, Checkbox, Col, Empty, Form, Input, Modal, Radio, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatAmount } from '../money';
import { FileField } from '../service-list/FileField';
import { useApplyInvoice, useInvoiceableOrders } from './queries';

type Values = Omit<ApplyInvoiceRequest, 'orderIds'> & { orderIds: string[] };

const OPTIONAL_FIELDS = ['taxpayerId', 'bank', 'account', 'companyAddress', 'companyPhone'] as const;

/**
 * Applying for an invoice over paid orders not yet invoiced: the amount is their sum (at least
 * RM200, as the server checks too), with the invoice's fields and one proof image.
 */
export function ApplyInvoiceModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const orders = useInvoiceableOrders(open);
  const apply = useApplyInvoice();
  const picked: string[] = Form.useWatch('orderIds', form) ?? [];
  const type = Form.useWatch('type', form) ?? 'electronic';
  // Sen, so the sum is exact whatever the number of orders.
  const sumSen = (orders.data ?? [])
    .filter((o) => picked.includes(o.id))
    .reduce((sum, o) => sum + Math.round(o.amount * 100) + Math.round((o.lateFee ?? 0) * 100), 0);
  const tooSmall = picked.length > 0 && sumSen < MIN_INVOICE_SEN;
  return (
    <Modal
      open={open}
      destroyOnHidden
      width={720}
      title={t('invoices.form.heading')}
      okText={t('invoices.form.submit')}
      cancelText={t('invoices.common.cancel')}
      confirmLoading={apply.isPending}
      okButtonProps={{
        disabled: tooSmall,
        ...({ 'data-testid': 'invoice-apply-submit' } as Record<string, unknown>),
      }}
      onCancel={onClose}
      onOk={async () => {
        const values = await form.validateFields().catch(() => null);
        if (!values) return;
        const done = await apply.mutateAsync(values as ApplyInvoiceRequest).catch(() => null);
        if (done) {
          form.resetFields();
          onClose();
        }
      }}
    >
      <Form form={form} layout="vertical" initialValues={{ type: 'electronic', orderIds: [] }}>
        <Form.Item
          name="orderIds"
          label={t('invoices.form.orders')}
          rules={[{ required: true, type: 'array', min: 1, message: t('invoices.form.ordersRequired') }]}
        >
          {orders.data && orders.data.length === 0 ? (
            <Empty description={t('invoices.form.noOrders')} data-testid="invoice-no-orders" />
          ) : (
            <Checkbox.Group style={{ width: '100%' }} data-testid="invoice-orders">
              <Flexible>
                {(orders.data ?? []).map((o) => (
                  <Checkbox key={o.id} value={o.id} data-testid={`invoice-order-${o.id}`}>
                    {o.orderNo} · {t(`billing.kind.${o.kind}`)} · {formatAmount(o.amount)}
                    {o.lateFee ? ` + ${t('invoices.orders.lateFee')} ${formatAmount(o.lateFee)}` : ''}
                  </Checkbox>
                ))}
              </Flexible>
            </Checkbox.Group>
          )}
        </Form.Item>
        <Typography.Paragraph data-testid="invoice-sum">
          {t('invoices.form.sum', { amount: formatAmount(sumSen / 100) })}
        </Typography.Paragraph>
        {tooSmall ? (
          <Alert
            type="warning"
            showIcon
            message={t('invoices.form.minimum')}
            data-testid="invoice-minimum"
            style={{ marginBottom: 12 }}
          />
        ) : null}
        <Form.Item name="type" label={t('invoices.form.type')} rules={[{ required: true }]}>
          <Radio.Group
            options={InvoiceTypes.map((v) => ({ value: v, label: t(`invoices.type.${v}`) }))}
            data-testid="invoice-type"
          />
        </Form.Item>
        <Row gutter={12}>
          <Col xs={24} md={12}>
            <Form.Item
              name="title"
              label={t('invoices.form.title')}
              rules={[{ required: true, whitespace: true, max: 100 }]}
            >
              <Input data-testid="invoice-title" maxLength={100} />
            </Form.Item>
          </Col>
          {OPTIONAL_FIELDS.map((name) => (
            <Col xs={24} md={12} key={name}>
              <Form.Item name={name} label={t(`invoices.form.${name}`)}>
                <Input data-testid={`invoice-${name}`} maxLength={name.includes('Address') ? 200 : 100} />
              </Form.Item>
            </Col>
          ))}
          {type === 'electronic' ? (
            <Col xs={24} md={12}>
              <Form.Item
                name="email"
                label={t('invoices.form.email')}
                rules={[{ required: true, type: 'email', message: t('invoices.form.emailRule') }]}
              >
                <Input data-testid="invoice-email" maxLength={100} />
              </Form.Item>
            </Col>
          ) : (
            (['mailingAddress', 'postcode', 'recipient', 'contact'] as const).map((name) => (
              <Col xs={24} md={12} key={name}>
                <Form.Item
                  name={name}
                  label={t(`invoices.form.${name}`)}
                  rules={[{ required: name !== 'postcode', whitespace: true }]}
                >
                  <Input data-testid={`invoice-${name}`} maxLength={200} />
                </Form.Item>
              </Col>
            ))
          )}
        </Row>
        <Form.Item
          name="proofImage"
          label={t('invoices.form.proofImage')}
          extra={t('invoices.form.proofHint')}
        >
          <FileField purpose="invoice" accept="image/png,image/jpeg" testId="invoice-proof" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function Flexible({ children }: { children: React.ReactNode }) {
  return <div style={{ display: 'flex', flexDirection: 'column', gap: 6 }}>{children}</div>;
}

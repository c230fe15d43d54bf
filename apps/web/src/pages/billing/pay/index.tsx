import type { OrderView } from '@coldchain/contract';
import { App, Button, Card, Flex, Form, InputNumber, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { DevicePicker, useSelectedDevices } from '../DevicePicker';
import { idsFromSearch } from '../links';
import { formatAmount } from '../money';
import { OrdersTable } from '../OrdersTable';
import { PriceTable } from '../PriceTable';
import { usePlaceRenewal, usePriceList } from '../queries';
import { TopUpGuard } from '../TopUpGuard';

interface PayForm {
  deviceIds: string[];
  months: number;
}

/** Monitor renewal (`monitoringDevicePay`): devices, whole months, price per tier and total. */
export default function MonitoringDevicePayPage() {
  const { t } = useTranslation();
  return (
    <Flex vertical gap="middle">
      <Typography.Title level={2} data-testid="page-title">
        {t('menu.monitoringDevicePay')}
      </Typography.Title>
      <TopUpGuard>
        <PayForm />
        <OrdersTable kind="renewal" />
      </TopUpGuard>
    </Flex>
  );
}

function PayForm() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [params] = useSearchParams();
  const [form] = Form.useForm<PayForm>();
  const prices = usePriceList();
  const place = usePlaceRenewal();
  const [placed, setPlaced] = useState<OrderView | null>(null);
  const deviceIds = Form.useWatch('deviceIds', form) ?? [];
  const months = Form.useWatch('months', form);
  const selected = useSelectedDevices(deviceIds);
  const wholeMonths = Number.isInteger(months) && months > 0 ? months : 0;

  const submit = async (values: PayForm) => {
    try {
      const order = await place.mutateAsync({ deviceIds: values.deviceIds, months: values.months });
      setPlaced(order);
      void message.success(t('billing.placed', { orderNo: order.orderNo }));
    } catch {
      // The request wrapper showed the server's message.
    }
  };

  return (
    <Card>
      <Form<PayForm>
        form={form}
        layout="vertical"
        initialValues={{ deviceIds: idsFromSearch(params), months: 12 }}
        onFinish={submit}
        style={{ maxWidth: 720 }}
      >
        <Form.Item
          name="deviceIds"
          label={t('billing.devices')}
          rules={[{ required: true, type: 'array', min: 1, message: t('billing.rule.selectDevices') }]}
        >
          <DevicePicker />
        </Form.Item>
        <Form.Item
          name="months"
          label={t('billing.months')}
          rules={[
            { required: true, message: t('billing.rule.months') },
            {
              validator: (_, value) =>
                value === undefined ||
                value === null ||
                (Number.isInteger(value) && value >= 1 && value <= 120)
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('billing.rule.months'))),
            },
          ]}
        >
          <InputNumber min={1} max={120} addonAfter={t('billing.monthUnit')} data-testid="months-input" />
        </Form.Item>
        <PriceTable
          prices={prices.data}
          kind="renewal"
          rows={selected.map((d) => ({ id: d.id, name: d.name, serial: d.serial, version: d.version }))}
          months={wholeMonths}
        />
        <Typography.Paragraph type="secondary">{t('billing.approvalNote')}</Typography.Paragraph>
        <Button type="primary" htmlType="submit" loading={place.isPending} data-testid="pay-submit">
          {t('billing.submitRenewal')}
        </Button>
        {placed && (
          <Typography.Paragraph data-testid="order-placed" style={{ marginTop: 16 }}>
            {t('billing.placed', { orderNo: placed.orderNo })} {formatAmount(placed.amount)}
          </Typography.Paragraph>
        )}
      </Form>
    </Card>
  );
}

import { type OrderView, recoveryMonths } from '@coldchain/contract';
import { App, Button, Card, DatePicker, Flex, Form, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { DevicePicker, useSelectedDevices } from '../DevicePicker';
import { idsFromSearch } from '../links';
import { formatAmount } from '../money';
import { OrdersTable } from '../OrdersTable';
import { PriceTable } from '../PriceTable';
import { usePlaceRecovery, usePriceList } from '../queries';
import { TopUpGuard } from '../TopUpGuard';
import { LapsePicker } from './LapsePicker';

interface RecoveryForm {
  deviceIds: string[];
  period: [Dayjs, Dayjs] | null;
}

/**
 * Data recovery (`monitoringDeviceRecovery`): devices and a past period, per 30-day month. With one
 * device selected, its lapsed service periods can be picked to fill in the period.
 */
export default function MonitoringDeviceRecoveryPage() {
  const { t } = useTranslation();
  return (
    <Flex vertical gap="middle">
      <Typography.Title level={2} data-testid="page-title">
        {t('menu.monitoringDeviceRecovery')}
      </Typography.Title>
      <TopUpGuard>
        <RecoveryFormCard />
        <OrdersTable kind="recovery" />
      </TopUpGuard>
    </Flex>
  );
}

function RecoveryFormCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [params] = useSearchParams();
  const [form] = Form.useForm<RecoveryForm>();
  const prices = usePriceList();
  const place = usePlaceRecovery();
  const [placed, setPlaced] = useState<OrderView | null>(null);
  const deviceIds = Form.useWatch('deviceIds', form) ?? [];
  const period = Form.useWatch('period', form);
  const selected = useSelectedDevices(deviceIds);
  const months = period?.[0] && period[1] ? recoveryMonths(period[0].valueOf(), period[1].valueOf()) : 0;

  const submit = async (values: RecoveryForm) => {
    if (!values.period) return;
    try {
      const order = await place.mutateAsync({
        deviceIds: values.deviceIds,
        startTime: values.period[0].valueOf(),
        endTime: values.period[1].valueOf(),
      });
      setPlaced(order);
      void message.success(t('billing.placed', { orderNo: order.orderNo }));
    } catch {
      // The request wrapper showed the server's message.
    }
  };

  return (
    <Card>
      <Form<RecoveryForm>
        form={form}
        layout="vertical"
        initialValues={{ deviceIds: idsFromSearch(params), period: null }}
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
        <LapsePicker
          deviceIds={deviceIds}
          onPick={([from, to]) =>
            form.setFields([{ name: 'period', value: [dayjs(from), dayjs(to)], errors: [] }])
          }
        />
        <Form.Item
          name="period"
          label={t('billing.period')}
          rules={[{ required: true, message: t('billing.rule.selectDevices') }]}
          extra={t('billing.recoveryRule')}
        >
          <DatePicker.RangePicker
            showTime
            disabledDate={(day) => day.isAfter(dayjs())}
            data-testid="recovery-period"
          />
        </Form.Item>
        <PriceTable
          prices={prices.data}
          kind="recovery"
          rows={selected.map((d) => ({ id: d.id, name: d.name, serial: d.serial, version: d.version }))}
          months={months}
        />
        <Typography.Paragraph type="secondary">{t('billing.approvalNote')}</Typography.Paragraph>
        <Button type="primary" htmlType="submit" loading={place.isPending} data-testid="recovery-submit">
          {t('billing.submitRecovery')}
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

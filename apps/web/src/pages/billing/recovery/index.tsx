import { recoveryMonths } from '@coldchain/contract';
import { DatePicker, Form } from 'antd';
import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useSelectedDevices } from '../DevicePicker';
import { OrderForm } from '../OrderForm';
import { OrderFormFooter, OrderPage, usePlacedOrder } from '../OrderPage';
import { usePlaceRecovery } from '../queries';
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
  return (
    <OrderPage menu="monitoringDeviceRecovery" kind="recovery">
      <RecoveryFormCard />
    </OrderPage>
  );
}

function RecoveryFormCard() {
  const { t } = useTranslation();
  const [form] = Form.useForm<RecoveryForm>();
  const place = usePlaceRecovery();
  const { placed, submit } = usePlacedOrder(async (values: RecoveryForm) =>
    place.mutateAsync({
      deviceIds: values.deviceIds,
      startTime: values.period![0].valueOf(),
      endTime: values.period![1].valueOf(),
    }),
  );
  const deviceIds = Form.useWatch('deviceIds', form) ?? [];
  const period = Form.useWatch('period', form);
  const selected = useSelectedDevices(deviceIds);
  const months = period?.[0] && period[1] ? recoveryMonths(period[0].valueOf(), period[1].valueOf()) : 0;

  return (
    <OrderForm<RecoveryForm> form={form} initialValues={{ period: null }} onFinish={submit}>
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
      <OrderFormFooter
        kind="recovery"
        selected={selected}
        months={months}
        pending={place.isPending}
        placed={placed}
        submitLabel={t('billing.submitRecovery')}
        submitTestId="recovery-submit"
      />
    </OrderForm>
  );
}

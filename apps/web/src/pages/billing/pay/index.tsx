import { Form, InputNumber } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSelectedDevices } from '../DevicePicker';
import { OrderForm } from '../OrderForm';
import { OrderFormFooter, OrderPage, usePlacedOrder } from '../OrderPage';
import { usePlaceRenewal } from '../queries';

interface PayForm {
  deviceIds: string[];
  months: number;
}

/** Monitor renewal (`monitoringDevicePay`): devices, whole months, price per tier and total. */
export default function MonitoringDevicePayPage() {
  return (
    <OrderPage menu="monitoringDevicePay" kind="renewal">
      <PayForm />
    </OrderPage>
  );
}

function PayForm() {
  const { t } = useTranslation();
  const [form] = Form.useForm<PayForm>();
  const place = usePlaceRenewal();
  const { placed, submit } = usePlacedOrder((values: PayForm) =>
    place.mutateAsync({ deviceIds: values.deviceIds, months: values.months }),
  );
  const deviceIds = Form.useWatch('deviceIds', form) ?? [];
  const months = Form.useWatch('months', form);
  const selected = useSelectedDevices(deviceIds);
  const wholeMonths = Number.isInteger(months) && months > 0 ? months : 0;

  return (
    <OrderForm<PayForm> form={form} initialValues={{ months: 12 }} onFinish={submit}>
      <Form.Item
        name="months"
        label={t('billing.months')}
        rules={[
          { required: true, message: t('billing.rule.months') },
          {
            validator: (_, value) =>
              value === undefined || value === null || (Number.isInteger(value) && value >= 1 && value <= 120)
                ? Promise.resolve()
                : Promise.reject(new Error(t('billing.rule.months'))),
          },
        ]}
      >
        <InputNumber min={1} max={120} addonAfter={t('billing.monthUnit')} data-testid="months-input" />
      </Form.Item>
      <OrderFormFooter
        kind="renewal"
        selected={selected}
        months={wholeMonths}
        pending={place.isPending}
        placed={placed}
        submitLabel={t('billing.submitRenewal')}
        submitTestId="pay-submit"
      />
    </OrderForm>
  );
}

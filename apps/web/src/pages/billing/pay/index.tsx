import { Card, Form, InputNumber } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { DevicePicker, useSelectedDevices } from '../DevicePicker';
import { idsFromSearch } from '../links';
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
  const [params] = useSearchParams();
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
        <OrderFormFooter
          kind="renewal"
          selected={selected}
          months={wholeMonths}
          pending={place.isPending}
          placed={placed}
          submitLabel={t('billing.submitRenewal')}
          submitTestId="pay-submit"
        />
      </Form>
    </Card>
  );
}

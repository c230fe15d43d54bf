import { Card, Form, type FormInstance } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { DevicePicker } from './DevicePicker';
import { idsFromSearch } from './links';

/**
 * The form of an order page: first the devices to order for, preselected from the link that led
 * here (see links.ts), then the page's own fields and footer.
 */
export function OrderForm<T extends { deviceIds: string[] }>({
  form,
  initialValues,
  onFinish,
  children,
}: {
  form: FormInstance<T>;
  /** Starting values of the page's own fields. */
  initialValues: Omit<T, 'deviceIds'>;
  onFinish: (values: T) => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  return (
    <Card>
      <Form<T>
        form={form}
        layout="vertical"
        initialValues={{ deviceIds: idsFromSearch(params), ...initialValues }}
        onFinish={onFinish}
        style={{ maxWidth: 720 }}
      >
        <Form.Item
          name="deviceIds"
          label={t('billing.devices')}
          rules={[{ required: true, type: 'array', min: 1, message: t('billing.rule.selectDevices') }]}
        >
          <DevicePicker />
        </Form.Item>
        {children}
      </Form>
    </Card>
  );
}

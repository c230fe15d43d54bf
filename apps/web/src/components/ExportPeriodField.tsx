import { Button, DatePicker, Form, Space } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';

/** Quick periods ending now, in hours. */
const PRESETS = { '24h': 24, '7d': 24 * 7, '30d': 24 * 30 } as const;

export type PeriodValue = [Dayjs | null, Dayjs | null] | null | undefined;

/**
 * The period an export dialog opens with: its screen's own filter when one is set, else the last
 * 24 hours, so "Export" then "OK" works without picking dates (issue 20: every export dialog
 * opened empty). One reading of the clock, so the period is exactly 24 hours long.
 */
export function initialExportPeriod(screenFilter?: [Dayjs, Dayjs] | null): [Dayjs, Dayjs] {
  if (screenFilter) return screenFilter;
  const end = dayjs();
  return [end.subtract(PRESETS['24h'], 'hour'), end];
}

/**
 * The period field of every export dialog (device data, alarms, audit logs): quick presets, the
 * range picker, and the checks the server makes (both ends, end after start, at most `maxDays`).
 * Messages are the dialog's own, already translated.
 */
export function ExportPeriodField({
  name = 'period',
  label,
  maxDays,
  requiredMessage,
  tooLongMessage,
  testId,
}: {
  name?: string;
  label: string;
  maxDays: number;
  requiredMessage: string;
  tooLongMessage: string;
  /** Test id of the picker; the presets are `<testId minus "-period">-preset-24h` and so on. */
  testId: string;
}) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const presetPrefix = testId.replace(/-period$/, '');
  return (
    <>
      <Space size="small" wrap style={{ marginBottom: 8 }}>
        {Object.entries(PRESETS).map(([key, hours]) => (
          <Button
            key={key}
            size="small"
            data-testid={`${presetPrefix}-preset-${key}`}
            onClick={() => {
              const end = dayjs();
              form.setFieldValue(name, [end.subtract(hours, 'hour'), end]);
              void form.validateFields([name]).catch(() => undefined);
            }}
          >
            {t(`layout.period.${key}`)}
          </Button>
        ))}
      </Space>
      <Form.Item
        name={name}
        label={label}
        rules={[
          {
            validator: async (_, value: PeriodValue) => {
              if (!value?.[0] || !value[1]) throw new Error(requiredMessage);
              if (!value[1].isAfter(value[0])) throw new Error(t('layout.period.endAfterStart'));
              if (value[1].diff(value[0], 'day', true) > maxDays) throw new Error(tooLongMessage);
            },
          },
        ]}
      >
        <DatePicker.RangePicker
          showTime
          format="YYYY-MM-DD HH:mm:ss"
          data-testid={testId}
          style={{ width: '100%' }}
        />
      </Form.Item>
    </>
  );
}

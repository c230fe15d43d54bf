import { EXPORT_MAX_DAYS, type ExportFormat } from '@coldchain/contract';
import { App, Button, DatePicker, Form, Radio, Space } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { SignPasswordField, signedBody, useSignCheck } from '../../../signature/SignPasswordField';
import { BatchModal, type BatchModalProps } from './BatchModal';
import { saveFile, useExportData } from './batch-queries';

/** Quick periods ending now, in hours. */
const PRESETS = { '24h': 24, '7d': 24 * 7, '30d': 24 * 30 } as const;

interface Values {
  period?: [Dayjs | null, Dayjs | null] | null;
  format?: ExportFormat;
  signPassword?: string;
}

/**
 * Batch data export (spec section 5: "Export needs a time period and a file format"): the
 * readings of the selected monitors over the period, as xlsx or csv, with times in the browser's
 * time zone.
 */
export function BatchExportModal({ deviceIds, open, onClose }: BatchModalProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const exportData = useExportData();
  const signCheck = useSignCheck();

  const submit = async (values: Values) => {
    const [start, end] = values.period ?? [];
    if (!start || !end || !values.format) return;
    try {
      const file = await exportData.mutateAsync(
        signedBody(
          signCheck,
          {
            deviceIds,
            startTime: start.valueOf(),
            endTime: end.valueOf(),
            format: values.format,
            timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
          },
          values.signPassword,
        ),
      );
      saveFile(file, `device-data.${values.format}`);
      void message.success(t('devices.batch.export.done'));
      onClose(true);
    } catch {
      // Shown by the request wrapper.
    }
  };

  return (
    <BatchModal<Values>
      open={open}
      onClose={onClose}
      title={t('devices.batch.export.title', { count: deviceIds.length })}
      okText={t('devices.batch.export.submit')}
      submitTestId="batch-export-submit"
      pending={exportData.isPending}
      form={form}
      onFinish={submit}
    >
      <Space size="small" style={{ marginBottom: 8 }}>
        {Object.entries(PRESETS).map(([key, hours]) => (
          <Button
            key={key}
            size="small"
            data-testid={`batch-export-preset-${key}`}
            onClick={() => {
              // One reading of the clock, so the period is exactly `hours` long.
              const end = dayjs();
              form.setFieldValue('period', [end.subtract(hours, 'hour'), end]);
              void form.validateFields(['period']).catch(() => undefined);
            }}
          >
            {t(`devices.batch.export.preset.${key}`)}
          </Button>
        ))}
      </Space>
      <Form.Item
        name="period"
        label={t('devices.batch.export.period')}
        rules={[
          {
            validator: async (_, value: Values['period']) => {
              if (!value?.[0] || !value[1]) throw new Error(t('devices.batch.selectRequired'));
              if (value[1].diff(value[0], 'day', true) > EXPORT_MAX_DAYS)
                throw new Error(t('devices.batch.export.periodTooLong', { days: EXPORT_MAX_DAYS }));
            },
          },
        ]}
      >
        <DatePicker.RangePicker showTime data-testid="batch-export-period" style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item
        name="format"
        label={t('devices.batch.export.format')}
        rules={[{ required: true, message: t('devices.batch.export.formatRequired') }]}
      >
        <Radio.Group data-testid="batch-export-format">
          <Radio value="xlsx">Excel (.xlsx)</Radio>
          <Radio value="csv">CSV (.csv)</Radio>
        </Radio.Group>
      </Form.Item>
      <SignPasswordField testId="batch-export-sign-password" />
    </BatchModal>
  );
}

import { EXPORT_MAX_DAYS, type ExportFormat } from '@coldchain/contract';
import { App, Form } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { ExportFormatField } from '../../../components/ExportFormatField';
import { ExportPeriodField, initialExportPeriod } from '../../../components/ExportPeriodField';
import { ExportProgress, useExportProgressId } from '../../../components/ExportProgress';
import { SignPasswordField, signedBody, useSignCheck } from '../../../signature/SignPasswordField';
import { BatchModal, type BatchModalProps } from './BatchModal';
import { saveFile, useExportData } from './batch-queries';

interface Values {
  period?: [Dayjs | null, Dayjs | null] | null;
  format?: ExportFormat;
  signPassword?: string;
}

/**
 * Batch data export (spec section 5: "Export needs a time period and a file format"): the
 * readings of the selected monitors over the period, as xlsx, csv or pdf, with times in the browser's
 * time zone.
 */
export function BatchExportModal({ deviceIds, open, onClose }: BatchModalProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const exportData = useExportData();
  const signCheck = useSignCheck();
  const progress = useExportProgressId();

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
            progressId: progress.begin(),
          },
          values.signPassword,
        ),
      );
      saveFile(file, `device-data.${values.format}`);
      void message.success(t('devices.batch.export.done'));
      onClose(true);
    } catch {
      // Shown by the request wrapper.
    } finally {
      progress.end();
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
      initialValues={{ period: initialExportPeriod() }}
    >
      <ExportPeriodField
        label={t('devices.batch.export.period')}
        maxDays={EXPORT_MAX_DAYS}
        requiredMessage={t('devices.batch.selectRequired')}
        tooLongMessage={t('devices.batch.export.periodTooLong', { days: EXPORT_MAX_DAYS })}
        testId="batch-export-period"
      />
      <ExportFormatField
        label={t('devices.batch.export.format')}
        requiredMessage={t('devices.batch.export.formatRequired')}
        testId="batch-export-format"
      />
      <SignPasswordField testId="batch-export-sign-password" />
      <ExportProgress progressId={progress.progressId} testId="batch-export-progress" />
    </BatchModal>
  );
}

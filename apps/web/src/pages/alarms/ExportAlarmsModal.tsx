import { ALARM_EXPORT_MAX_DAYS, type ExportAlarmsRequest } from '@coldchain/contract';
import { Alert, App, Form, Modal } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { ExportFormatField } from '../../components/ExportFormatField';
import { ExportPeriodField, initialExportPeriod } from '../../components/ExportPeriodField';
import { ExportProgress, useExportProgressId } from '../../components/ExportProgress';
import { SignPasswordField, signedBody, useSignCheck } from '../../signature/SignPasswordField';
import { saveFile } from '../devices/batch/batch-queries';
import { useExportAlarms } from './queries';

interface Values {
  period?: [Dayjs | null, Dayjs | null] | null;
  format?: ExportAlarmsRequest['format'];
  signPassword?: string;
}

/**
 * Export of alarm records (time period and format required). The list's resolve-state and type
 * filters apply; while the company's audit signature is on the shared signature field asks for
 * the signature password (docs/decisions.md), as the server requires it then.
 */
export function ExportAlarmsModal({
  open,
  filters,
  initialPeriod,
  onClose,
}: {
  open: boolean;
  filters: Pick<ExportAlarmsRequest, 'resolveState' | 'alarmType'>;
  /** The list's time filter, offered as the period; the last 24 hours without one. */
  initialPeriod: [Dayjs, Dayjs] | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const exportAlarms = useExportAlarms();
  const signCheck = useSignCheck();
  const progress = useExportProgressId();

  const submit = async (values: Values) => {
    const [start, end] = values.period ?? [];
    if (!start || !end || !values.format) return;
    try {
      const file = await exportAlarms.mutateAsync(
        signedBody(
          signCheck,
          {
            ...filters,
            startTime: start.valueOf(),
            endTime: end.valueOf(),
            format: values.format,
            timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
            progressId: progress.begin(),
          },
          values.signPassword,
        ),
      );
      saveFile(file, `alarms.${values.format}`);
      void message.success(t('alarms.export.done'));
      onClose();
    } catch {
      // Shown by the request wrapper.
    } finally {
      progress.end();
    }
  };

  return (
    <Modal
      open={open}
      title={t('alarms.export.title')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('alarms.export.submit')}
      cancelText={t('alarms.resolve.cancel')}
      okButtonProps={{ loading: exportAlarms.isPending, 'data-testid': 'alarm-export-submit' }}
      destroyOnHidden
      mask={{ closable: false }}
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        preserve={false}
        initialValues={{ period: initialExportPeriod(initialPeriod) }}
      >
        <ExportPeriodField
          label={t('alarms.export.period')}
          maxDays={ALARM_EXPORT_MAX_DAYS}
          requiredMessage={t('alarms.export.periodRequired')}
          tooLongMessage={t('alarms.export.periodTooLong', { days: ALARM_EXPORT_MAX_DAYS })}
          testId="alarm-export-period"
        />
        <ExportFormatField
          label={t('alarms.export.format')}
          requiredMessage={t('alarms.export.formatRequired')}
          testId="alarm-export-format"
        />
        <SignPasswordField testId="alarm-export-sign-password" />
        {(filters.resolveState || filters.alarmType) && (
          <Alert type="info" showIcon title={t('alarms.export.filtersHint')} />
        )}
        <ExportProgress progressId={progress.progressId} testId="alarm-export-progress" />
      </Form>
    </Modal>
  );
}

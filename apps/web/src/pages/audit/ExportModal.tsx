import { AUDIT_EXPORT_MAX_DAYS, AUDIT_EXPORT_MAX_ROWS, type AuditExportFormat } from '@coldchain/contract';
import { App, Form, Modal, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { FileResponse } from '../../api/request';
import { ExportFormatField } from '../../components/ExportFormatField';
import { ExportPeriodField, initialExportPeriod } from '../../components/ExportPeriodField';
import { ExportProgress, useExportProgressId } from '../../components/ExportProgress';
import { SignPasswordField, signedBody, useSignCheck } from '../../signature/SignPasswordField';
import { saveFile } from './queries';

export interface ExportPeriod {
  startTime: number;
  endTime: number;
  format: AuditExportFormat;
  timeZone: string;
  /** Sent only while the company's audit signature is on. */
  signPassword?: string;
}

interface Values {
  period?: [Dayjs | null, Dayjs | null] | null;
  format?: AuditExportFormat;
  signPassword?: string;
}

/**
 * The export dialog of the audit screens (spec section 5: "Export needs a time period and a file
 * format"). The period starts as the screen's filter, or the last 24 hours; the screen adds its
 * other filters.
 */
export function ExportModal({
  open,
  what,
  initialPeriod,
  pending,
  onExport,
  onClose,
}: {
  open: boolean;
  /** What is exported, already translated ("Login log"). */
  what: string;
  initialPeriod: [Dayjs, Dayjs] | null;
  pending: boolean;
  onExport: (period: ExportPeriod) => Promise<FileResponse>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const signCheck = useSignCheck();
  const progress = useExportProgressId();

  const submit = async (values: Values) => {
    const [start, end] = values.period ?? [];
    if (!start || !end || !values.format) return;
    try {
      const file = await onExport(
        signedBody(
          signCheck,
          {
            startTime: start.valueOf(),
            endTime: end.valueOf(),
            format: values.format,
            timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
            progressId: progress.begin(),
          },
          values.signPassword,
        ),
      );
      saveFile(file, `${what}.${values.format}`);
      void message.success(t('audit.export.done'));
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
      title={t('audit.export.title', { what })}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('audit.export.submit')}
      cancelText={t('audit.export.cancel')}
      okButtonProps={{ loading: pending, 'data-testid': 'audit-export-submit' }}
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
          label={t('audit.export.period')}
          maxDays={AUDIT_EXPORT_MAX_DAYS}
          requiredMessage={t('audit.export.periodRequired')}
          tooLongMessage={t('audit.export.periodTooLong', { days: AUDIT_EXPORT_MAX_DAYS })}
          testId="audit-export-period"
        />
        <ExportFormatField
          label={t('audit.export.format')}
          requiredMessage={t('audit.export.formatRequired')}
          testId="audit-export-format"
        />
        <SignPasswordField testId="audit-export-sign-password" />
        <Typography.Text type="secondary">
          {t('audit.export.note', { rows: AUDIT_EXPORT_MAX_ROWS.toLocaleString() })}
        </Typography.Text>
        <ExportProgress progressId={progress.progressId} testId="audit-export-progress" />
      </Form>
    </Modal>
  );
}

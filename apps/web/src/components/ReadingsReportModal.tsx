import {
  REPORT_MAX_DAYS,
  ReportIntervals,
  type ReportPeriod,
  type ReportSignMeaning,
} from '@coldchain/contract';
import { useMutation } from '@tanstack/react-query';
import { App, Form, Modal, Radio, Select, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { FileResponse } from '../api/request';
import { saveFile } from '../pages/devices/batch/batch-queries';
import { SignPasswordField, signedBody, useSignCheck } from '../signature/SignPasswordField';
import { ExportPeriodField, initialExportPeriod } from './ExportPeriodField';

interface Values {
  period?: [Dayjs | null, Dayjs | null] | null;
  interval: number | 'all';
  meaning: ReportSignMeaning | 'none';
  signPassword?: string;
}

/**
 * The dialog of every PDF report of readings (a sensor's, an equipment's; issue 15): period,
 * readings-table step and, when the report is to be signed, the meaning of the signature and the
 * signature password. The server prints the fingerprint on every page and keeps the file for
 * `verifyReport` and the data centre; `create` sends the period to the report's own call.
 */
export function ReadingsReportModal({
  what,
  testId,
  create,
  onClose,
}: {
  /** What the report is of, already translated ("Fridge 3 · Temperature"). */
  what: string;
  testId: string;
  create: (period: ReportPeriod) => Promise<FileResponse>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const signCheck = useSignCheck();
  const meaning = Form.useWatch('meaning', form);
  const signing = meaning !== undefined && meaning !== 'none';
  const report = useMutation({ mutationFn: create });

  const submit = async (values: Values) => {
    const [start, end] = values.period ?? [];
    if (!start || !end) return;
    const period: ReportPeriod = {
      startTime: start.valueOf(),
      endTime: end.valueOf(),
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      ...(values.interval === 'all' ? {} : { interval: values.interval }),
      ...(values.meaning === 'none' ? {} : { signMeaning: values.meaning }),
    };
    try {
      const file = await report.mutateAsync(signedBody(signCheck || signing, period, values.signPassword));
      saveFile(file, 'report.pdf');
      void message.success(t('common.report.done'));
      onClose();
    } catch {
      // Shown by the request wrapper.
    }
  };

  const intervalLabel = (m: number) =>
    m % 60 === 0 ? t('common.report.hours', { n: m / 60 }) : t('common.report.minutes', { n: m });

  return (
    <Modal
      open
      title={t('common.report.title', { what })}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('common.report.submit')}
      cancelText={t('common.report.cancel')}
      okButtonProps={{ loading: report.isPending, 'data-testid': `${testId}-submit` }}
      destroyOnHidden
      mask={{ closable: false }}
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{ period: initialExportPeriod(), interval: 'all', meaning: 'none' }}
      >
        <ExportPeriodField
          label={t('common.report.period')}
          maxDays={REPORT_MAX_DAYS}
          requiredMessage={t('common.report.periodRequired')}
          tooLongMessage={t('common.report.periodTooLong', { days: REPORT_MAX_DAYS })}
          testId={`${testId}-period`}
        />
        <Form.Item name="interval" label={t('common.report.interval')}>
          <Select
            data-testid={`${testId}-interval`}
            options={[
              { value: 'all', label: t('common.report.everyReading') },
              ...ReportIntervals.map((m) => ({ value: m, label: intervalLabel(m) })),
            ]}
          />
        </Form.Item>
        <Form.Item name="meaning" label={t('common.report.meaning')}>
          <Radio.Group data-testid={`${testId}-meaning`}>
            <Radio value="none">{t('common.report.unsigned')}</Radio>
            <Radio value="reviewed">{t('common.report.reviewed')}</Radio>
            <Radio value="approved">{t('common.report.approved')}</Radio>
          </Radio.Group>
        </Form.Item>
        <SignPasswordField testId={`${testId}-sign-password`} signing={signing} />
        <Typography.Text type="secondary">{t('common.report.meaningHint')}</Typography.Text>
      </Form>
    </Modal>
  );
}

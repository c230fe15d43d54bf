import type { ExportStatisticsRequest, StatisticsChart, StatisticsRequest } from '@coldchain/contract';
import { App, Form, Modal } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SignPasswordField, signedBody, useSignCheck } from '../../../signature/SignPasswordField';
import { saveFile } from '../../devices/batch/batch-queries';
import { useExportStatistics } from '../queries';

/**
 * The xlsx export of one chart through the server's export (audited, the member's export flag
 * applies). While the company's audit signature is on, the signature password is asked first.
 */
export function useChartExport(body: StatisticsRequest): {
  start: (chart: StatisticsChart) => void;
  exporting: StatisticsChart | null;
  dialog: ReactNode;
} {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const signCheck = useSignCheck();
  const mutation = useExportStatistics();
  const [asking, setAsking] = useState<ExportStatisticsRequest | null>(null);
  const [form] = Form.useForm<{ signPassword?: string }>();

  const run = async (request: ExportStatisticsRequest, signPassword?: string) => {
    const file = await mutation.mutateAsync(signedBody(signCheck, request, signPassword));
    saveFile(file, `statistics-${request.chart}.xlsx`);
    void message.success(t('statistics.export.done'));
  };

  const start = (chart: StatisticsChart) => {
    const request: ExportStatisticsRequest = { ...body, chart, format: 'xlsx' };
    if (signCheck) setAsking(request);
    // Refusals are shown by the request wrapper.
    else run(request).catch(() => undefined);
  };

  const dialog = (
    <Modal
      open={asking !== null}
      title={t('statistics.export.signTitle')}
      onCancel={() => setAsking(null)}
      onOk={() => form.submit()}
      okText={t('statistics.export.submit')}
      cancelText={t('statistics.export.cancel')}
      okButtonProps={{ loading: mutation.isPending, 'data-testid': 'statistics-export-submit' }}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        onFinish={(values) => {
          if (!asking) return;
          run(asking, values.signPassword)
            .then(() => setAsking(null))
            .catch(() => undefined);
        }}
      >
        <SignPasswordField testId="statistics-export-sign-password" />
      </Form>
    </Modal>
  );

  return { start, exporting: mutation.isPending ? (mutation.variables?.chart ?? null) : null, dialog };
}

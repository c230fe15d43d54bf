import { App, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import type { FileResponse } from '../../../api/request';
import { type ExportFileFormat, ExportFormatField } from '../../../components/ExportFormatField';
import { ExportProgress, useExportProgressId } from '../../../components/ExportProgress';
import { SignPasswordField, signedBody, useSignCheck } from '../../../signature/SignPasswordField';
import { BatchModal } from '../../devices/batch/BatchModal';
import { saveFile } from '../../devices/batch/batch-queries';
import { useExport } from '../api';

interface Values {
  format: ExportFileFormat;
  signPassword?: string;
}

/**
 * Exports a list as xlsx, csv or pdf (spec section 5: a file format; the signature password while audit
 * signature is on). `body` holds what to export: the list's filters, or one equipment's records.
 */
export function ExportEquipmentModal({
  open,
  onClose,
  path,
  body,
  fileName,
  title,
  testId,
}: {
  open: boolean;
  onClose: () => void;
  path: string;
  body: Record<string, unknown>;
  fileName: string;
  title: string;
  testId: string;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const exporting = useExport<Record<string, unknown>>(path);
  const signCheck = useSignCheck();
  const progress = useExportProgressId();

  const submit = async (values: Values) => {
    try {
      const file: FileResponse = await exporting.mutateAsync(
        signedBody(
          signCheck,
          {
            ...body,
            format: values.format,
            timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
            progressId: progress.begin(),
          },
          values.signPassword,
        ),
      );
      saveFile(file, `${fileName}.${values.format}`);
      void message.success(t('equipment.export.done'));
      onClose();
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
      title={title}
      okText={t('equipment.export.submit')}
      submitTestId={`${testId}-submit`}
      pending={exporting.isPending}
      form={form}
      onFinish={submit}
      initialValues={{ format: 'xlsx' }}
    >
      <ExportFormatField
        label={t('equipment.export.format')}
        requiredMessage={t('equipment.export.formatRequired')}
        testId={`${testId}-format`}
      />
      <SignPasswordField testId={`${testId}-sign-password`} />
      <ExportProgress progressId={progress.progressId} testId={`${testId}-progress`} />
    </BatchModal>
  );
}

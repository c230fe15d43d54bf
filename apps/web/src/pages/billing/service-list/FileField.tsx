import { UploadOutlined } from '@ant-design/icons';
import { Button, Flex, Image, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { uploadFile } from '../../../api/request';

/**
 * One uploaded file (`/api/file/upload`), kept as the `/files/...` path the server returned: a
 * transfer proof or an invoice proof (purpose `invoice`: JPG or PNG), an invoice PDF (`attachment`).
 */
export function FileField({
  value,
  onChange,
  purpose,
  accept,
  testId,
}: {
  value?: string;
  onChange?: (url: string | undefined) => void;
  purpose: 'invoice' | 'attachment';
  accept: string;
  testId: string;
}) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const pick = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    try {
      const { url } = await uploadFile<{ url: string }>('/api/file/upload', file, file.name, { purpose });
      onChange?.(url);
    } catch {
      // The request wrapper has shown the server's message (size or type).
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };
  return (
    <Flex gap="small" align="center" wrap>
      <input
        ref={input}
        type="file"
        accept={accept}
        hidden
        data-testid={`${testId}-input`}
        onChange={(e) => void pick(e.target.files?.[0])}
      />
      <Button
        icon={<UploadOutlined />}
        loading={busy}
        onClick={() => input.current?.click()}
        data-testid={testId}
      >
        {value ? t('invoices.file.replace') : t('invoices.file.choose')}
      </Button>
      {value && purpose === 'invoice' ? (
        <Image src={value} width={64} data-testid={`${testId}-preview`} />
      ) : null}
      {value && purpose === 'attachment' ? (
        <Typography.Text type="success" data-testid={`${testId}-done`}>
          {t('invoices.file.uploaded')}
        </Typography.Text>
      ) : null}
    </Flex>
  );
}

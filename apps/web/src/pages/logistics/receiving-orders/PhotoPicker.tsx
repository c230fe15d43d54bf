import { UploadOutlined } from '@ant-design/icons';
import { Button, Image, Space } from 'antd';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The photo of the goods at the door, for both ways of receiving: a member's receive dialog
 * (`/api/file/upload`) and a link receiver's page (`/api/logistics/linkPhoto`, the link's token
 * as credential). `upload` stores the file and gives its address; the picker shows it small.
 */
export function PhotoPicker({
  upload,
  value,
  onChange,
  testId,
}: {
  upload: (file: File) => Promise<string>;
  value: string | null;
  onChange: (url: string | null) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  const inputId = useId();
  const [busy, setBusy] = useState(false);
  const pick = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    try {
      onChange(await upload(file));
    } catch {
      // The request wrapper showed the server's message (too large, not a JPG or PNG).
    } finally {
      setBusy(false);
    }
  };
  return (
    <Space wrap align="center">
      <Button
        icon={<UploadOutlined />}
        loading={busy}
        onClick={() => document.getElementById(inputId)?.click()}
      >
        {t('logistics.receiving.upload')}
      </Button>
      <input
        id={inputId}
        type="file"
        accept="image/png,image/jpeg"
        hidden
        aria-label={t('logistics.receiving.photo')}
        data-testid={testId}
        onChange={(e) => void pick(e.target.files?.[0])}
      />
      {value && (
        <Image
          src={value}
          width={64}
          height={64}
          style={{ objectFit: 'cover' }}
          alt={t('logistics.receiving.photo')}
          data-testid={`${testId}-preview`}
        />
      )}
    </Space>
  );
}

import { UploadOutlined } from '@ant-design/icons';
import { App, Button, Flex, Image, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { uploadImage } from '../queries';
import { departmentImageProblem } from '../rules';

interface Props {
  value?: string;
  onChange?: (url: string) => void;
}

/**
 * Department image (spec section 5: jpg or png, at most 3 MB). The file is checked in the
 * browser first, so a wrong one is refused with its reason before anything is sent.
 */
export function ImageUpload({ value, onChange }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);

  const pick = async (file: File) => {
    const problem = departmentImageProblem(file);
    if (problem) {
      void message.error(t(problem));
      return;
    }
    setBusy(true);
    try {
      const { url } = await uploadImage(file);
      onChange?.(url);
    } catch {
      // The request wrapper showed the reason.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Flex gap="middle" align="center" wrap>
      {value ? (
        <span data-testid="department-image">
          <Image src={value} width={96} />
        </span>
      ) : null}
      <Upload
        accept=".jpg,.jpeg,.png"
        showUploadList={false}
        beforeUpload={(file) => {
          void pick(file);
          return false;
        }}
      >
        <Button icon={<UploadOutlined />} loading={busy} data-testid="department-image-upload">
          {t('org.image.upload')}
        </Button>
      </Upload>
      {value ? (
        <Button type="link" onClick={() => onChange?.('')} data-testid="department-image-clear">
          {t('org.image.clear')}
        </Button>
      ) : null}
      <span style={{ color: 'rgba(0,0,0,0.45)' }}>{t('org.image.hint')}</span>
    </Flex>
  );
}

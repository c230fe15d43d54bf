import { PlusOutlined } from '@ant-design/icons';
import { Upload, type UploadFile } from 'antd';
import { useTranslation } from 'react-i18next';
import { uploadFile } from '../api/request';
import { useNotify } from '../router/notify';

export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];
export const FEEDBACK_IMAGE_MAX_BYTES = 3 * 1_048_576;
export const FEEDBACK_IMAGE_PATH = '/api/device/addCalibrationImg';

/** The stored path of an uploaded image (`/api/device/addCalibrationImg` answers `{ urls }`). */
export function uploadedUrl(file: UploadFile): string | null {
  const response = file.response as { urls?: string[] } | undefined;
  return file.status === 'done' ? (response?.urls?.[0] ?? null) : null;
}

/**
 * Picture-card picker for feedback images (spec sections 5 and 8): at most `max` images; one
 * more, a wrong type or a too large file gets an error toast and is not added.
 */
export function ImageUploadList({
  files,
  onChange,
  max,
}: {
  files: UploadFile[];
  onChange: (files: UploadFile[]) => void;
  max: number;
}) {
  const { t } = useTranslation();
  const notify = useNotify();
  const error = (key: string) => notify({ type: 'error', content: t(key), duration: 5 });

  return (
    <Upload
      data-testid="feedback-images"
      listType="picture-card"
      accept={IMAGE_TYPES.join(',')}
      multiple
      fileList={files}
      beforeUpload={(file, batch) => {
        // Only the first refused file of a batch speaks, so three extra files give one toast.
        if (files.length + batch.indexOf(file) >= max) {
          if (files.length + batch.indexOf(file) === max) error('feedback.tooManyImages');
          return Upload.LIST_IGNORE;
        }
        if (!IMAGE_TYPES.includes(file.type)) {
          error('feedback.imageWrongType');
          return Upload.LIST_IGNORE;
        }
        if (file.size > FEEDBACK_IMAGE_MAX_BYTES) {
          error('feedback.imageTooLarge');
          return Upload.LIST_IGNORE;
        }
        return true;
      }}
      customRequest={({ file, onSuccess, onError }) => {
        uploadFile(FEEDBACK_IMAGE_PATH, file as Blob, (file as File).name, { purpose: 'feedback' })
          .then((result) => onSuccess?.(result))
          .catch((e: Error) => onError?.(e));
      }}
      onChange={({ fileList }) => onChange(fileList.filter((f) => f.status !== 'error'))}
    >
      {files.length >= max ? null : (
        <button type="button" style={{ border: 0, background: 'none' }} data-testid="feedback-image-add">
          <PlusOutlined />
          <div style={{ marginTop: 8 }}>{t('feedback.upload')}</div>
        </button>
      )}
    </Upload>
  );
}

import { FEEDBACK_DEFAULT_CATEGORY, FEEDBACK_MAX_IMAGES } from '@coldchain/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Form, Input, Modal, Select, type UploadFile } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addFeedback, SENT_FEEDBACK_KEY } from '../api/calls';
import { useNotify } from '../router/notify';
import { ImageUploadList, uploadedUrl } from './ImageUploadList';

interface FeedbackForm {
  content: string;
  category: number;
}

const CATEGORIES = [1, 2, 3, 4, 5, 6, 7];

/** Feedback dialog (spec section 3): content required up to 1000 characters, category 1-7, up to 3 images. */
export function FeedbackDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<FeedbackForm>();
  const [busy, setBusy] = useState(false);
  const [images, setImages] = useState<UploadFile[]>([]);
  const uploading = images.some((f) => f.status === 'uploading');

  const submit = async (values: FeedbackForm) => {
    setBusy(true);
    try {
      const urls = images.map(uploadedUrl).filter((url): url is string => url !== null);
      await addFeedback({ content: values.content.trim(), category: values.category }, urls);
      notify({ type: 'success', content: t('feedback.success'), duration: 3 });
      // The personal centre's "Feedback" tab may be open in the personal centre behind the dialog.
      void queryClient.invalidateQueries({ queryKey: SENT_FEEDBACK_KEY });
      form.resetFields();
      setImages([]);
      onClose();
    } catch {
      // Shown by the request wrapper; the dialog stays open so nothing typed is lost.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('feedback.title')}
      okText={t('feedback.submit')}
      cancelText={t('feedback.cancel')}
      confirmLoading={busy}
      okButtonProps={{ disabled: uploading }}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<FeedbackForm>
        form={form}
        layout="vertical"
        initialValues={{ category: FEEDBACK_DEFAULT_CATEGORY }}
        onFinish={submit}
      >
        <Form.Item
          name="content"
          label={t('feedback.content')}
          rules={[{ required: true, whitespace: true, message: t('feedback.contentRequired') }]}
        >
          <Input.TextArea rows={5} maxLength={1000} showCount data-testid="feedback-content" />
        </Form.Item>
        <Form.Item name="category" label={t('feedback.category')}>
          <Select
            data-testid="feedback-category"
            options={CATEGORIES.map((value) => ({ value, label: t(`feedback.categories.${value}`) }))}
          />
        </Form.Item>
        <Form.Item label={t('feedback.images')} extra={t('feedback.imagesHint')}>
          <ImageUploadList files={images} onChange={setImages} max={FEEDBACK_MAX_IMAGES} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

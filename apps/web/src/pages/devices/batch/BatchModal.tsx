import { Form, type FormInstance, Modal } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** What the device list hands each batch dialog. */
export interface BatchModalProps {
  deviceIds: string[];
  open: boolean;
  /** `done` is true when the action went through, so the list clears its selection. */
  onClose: (done: boolean) => void;
}

/**
 * The frame of a batch dialog: one form, submitted by OK; only Cancel closes it (not a click beside
 * it), and closing drops what was filled in.
 */
export function BatchModal<T>({
  open,
  onClose,
  title,
  okText,
  submitTestId,
  pending,
  form,
  onFinish,
  initialValues,
  intro,
  children,
}: Pick<BatchModalProps, 'open' | 'onClose'> & {
  title: string;
  okText: string;
  submitTestId: string;
  pending: boolean;
  form: FormInstance<T>;
  onFinish: (values: T) => void;
  initialValues?: Partial<T>;
  /** Shown above the form. */
  intro?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      title={title}
      onCancel={() => onClose(false)}
      onOk={() => form.submit()}
      okText={okText}
      cancelText={t('devices.add.cancel')}
      okButtonProps={{ loading: pending, 'data-testid': submitTestId }}
      destroyOnHidden
      mask={{ closable: false }}
    >
      {intro}
      <Form form={form} layout="vertical" onFinish={onFinish} preserve={false} initialValues={initialValues}>
        {children}
      </Form>
    </Modal>
  );
}

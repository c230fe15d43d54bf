import type { DeliveryListItem } from '@coldchain/contract';
import { App, Form, Input, Modal, Radio } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { uploadFile } from '../../../api/request';
import { SignPasswordField, signedBody, useSignCheck } from '../../../signature/SignPasswordField';
import { useReceiveDelivery } from '../delivery-orders/api';
import { PhotoPicker } from './PhotoPicker';

interface Values {
  accepted: boolean;
  remarks?: string;
  signPassword?: string;
}

/**
 * The receiver's decision at the door: accept or reject, remarks, a photo of the goods, signed
 * with the member's signature password while the company's audit signature is on (the one
 * signature field and step of the console and server).
 */
export function ReceiveModal({ order, onClose }: { order: DeliveryListItem; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const receive = useReceiveDelivery();
  const signCheck = useSignCheck();
  const [photo, setPhoto] = useState<string | null>(null);
  const r = (key: string) => t(`logistics.receiving.${key}`);

  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    try {
      await receive.mutateAsync(
        signedBody(
          signCheck,
          {
            id: order.id,
            accepted: values.accepted,
            remarks: values.remarks?.trim() ?? '',
            ...(photo ? { photo } : {}),
          },
          values.signPassword,
        ),
      );
      void message.success(r('received'));
      onClose();
    } catch {
      // The request wrapper showed the server's message (a wrong password, for one).
    }
  };
  return (
    <Modal
      open
      title={t('logistics.receiving.receiveTitle', { orderNo: order.orderNo })}
      okText={r('receive')}
      cancelText={t('logistics.delivery.dismiss')}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={receive.isPending}
      okButtonProps={{ 'data-testid': 'receive-submit' }}
    >
      <Form form={form} layout="vertical" initialValues={{ accepted: true }}>
        <Form.Item name="accepted" label={r('decision')}>
          <Radio.Group
            data-testid="receive-decision"
            options={[
              { value: true, label: r('accept') },
              { value: false, label: r('reject') },
            ]}
          />
        </Form.Item>
        <Form.Item name="remarks" label={t('logistics.delivery.field.remarks')}>
          <Input.TextArea maxLength={500} rows={2} data-testid="receive-remarks" />
        </Form.Item>
        <Form.Item label={r('photo')}>
          <PhotoPicker
            testId="receive-photo"
            value={photo}
            onChange={setPhoto}
            upload={async (file) =>
              (
                await uploadFile<{ url: string }>('/api/file/upload', file, file.name, {
                  purpose: 'feedback',
                })
              ).url
            }
          />
        </Form.Item>
        <SignPasswordField testId="receive-password" />
      </Form>
    </Modal>
  );
}

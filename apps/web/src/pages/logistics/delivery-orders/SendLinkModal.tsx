import type { DeliveryListItem } from '@coldchain/contract';
import { Alert, Form, Input, InputNumber, Modal, Radio, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../devices/format';
import { useSendReceiptLink } from './api';

interface Values {
  channel: 'email' | 'sms';
  recipient: string;
  validDays: number;
  language: 'en' | 'cn';
}

/**
 * Sends a receipt link to a receiver outside the platform (e-mail or SMS through the outbox) and
 * shows the link itself, to read out or paste when no message channel is set up.
 */
export function SendLinkModal({ order, onClose }: { order: DeliveryListItem; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<Values>();
  const send = useSendReceiptLink();
  const [sent, setSent] = useState<{ url: string; expireTime: number } | null>(null);
  const submit = async () => {
    if (sent) return onClose();
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    try {
      setSent(await send.mutateAsync({ id: order.id, ...values, recipient: values.recipient.trim() }));
    } catch {
      // The request wrapper showed the server's message.
    }
  };
  return (
    <Modal
      open
      title={t('logistics.delivery.linkTitle')}
      okText={sent ? t('logistics.delivery.close') : t('logistics.delivery.send')}
      cancelText={t('logistics.delivery.dismiss')}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={send.isPending}
      okButtonProps={{ 'data-testid': 'delivery-link-send' }}
    >
      {sent ? (
        <Alert
          type="success"
          showIcon
          title={t('logistics.delivery.linkSent')}
          description={
            <>
              {t('logistics.delivery.linkCopy', { time: formatTime(sent.expireTime) })}{' '}
              <Typography.Text copyable data-testid="delivery-link-url" style={{ wordBreak: 'break-all' }}>
                {sent.url}
              </Typography.Text>
            </>
          }
        />
      ) : (
        <Form
          form={form}
          layout="vertical"
          initialValues={{
            channel: 'email',
            validDays: 7,
            language: i18n.language.startsWith('zh') ? 'cn' : 'en',
          }}
        >
          <Form.Item name="channel">
            <Radio.Group
              options={[
                { value: 'email', label: t('logistics.delivery.channelEmail') },
                { value: 'sms', label: t('logistics.delivery.channelSms') },
              ]}
            />
          </Form.Item>
          <Form.Item
            name="recipient"
            label={t('logistics.delivery.field.recipient')}
            rules={[{ required: true, whitespace: true, message: t('logistics.delivery.required') }]}
          >
            <Input maxLength={100} data-testid="delivery-link-recipient" />
          </Form.Item>
          <Form.Item name="validDays" label={t('logistics.delivery.validDays')}>
            <InputNumber min={1} max={30} />
          </Form.Item>
          <Form.Item name="language" label={t('logistics.delivery.linkLanguage')}>
            <Radio.Group
              options={[
                { value: 'en', label: 'English' },
                { value: 'cn', label: '中文' },
              ]}
            />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}

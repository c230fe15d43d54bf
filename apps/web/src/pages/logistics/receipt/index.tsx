import type { DeliveryDetail } from '@coldchain/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Input, Radio, Result, Segmented, Space, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { request, uploadFile } from '../../../api/request';
import { DELIVERY_PATHS, downloadNote } from '../delivery-orders/api';
import { DeliveryDetailView } from '../delivery-orders/DeliveryDetailView';
import { PhotoPicker } from '../receiving-orders/PhotoPicker';
import { SignaturePad } from './SignaturePad';

interface Values {
  accepted: boolean;
  remarks?: string;
  signerName: string;
}

/**
 * `/receipt/:token`: the receipt page of a receiver outside the platform, opened from the signed
 * link the sender sent. No login: the link's token is the credential until it expires, and the
 * page shows that one shipment and its readings between departure and arrival, nothing else.
 */
export default function ReceiptPage() {
  const { t, i18n } = useTranslation();
  const token = useParams().token ?? '';
  const [form] = Form.useForm<Values>();
  const [signature, setSignature] = useState<string | null>(null);
  const [photo, setPhoto] = useState<string | null>(null);
  const detail = useQuery({
    queryKey: ['logistics', 'receipt', token],
    queryFn: () => request<DeliveryDetail>(DELIVERY_PATHS.linkReceipt, { token }),
    retry: false,
  });
  const receive = useMutation({
    mutationFn: (body: Values & { signature: string; photo?: string }) =>
      request<null>(DELIVERY_PATHS.linkReceive, { token, ...body }),
    onSuccess: () => void detail.refetch(),
  });
  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values || !signature) return;
    await receive
      .mutateAsync({
        ...values,
        remarks: values.remarks?.trim() ?? '',
        signerName: values.signerName.trim(),
        signature,
        ...(photo ? { photo } : {}),
      })
      .catch(() => undefined);
  };
  const d = detail.data;
  return (
    <main style={{ maxWidth: 960, margin: '0 auto', padding: 16 }}>
      <Space style={{ width: '100%', justifyContent: 'space-between' }} wrap>
        <Typography.Title level={2} style={{ margin: 0 }} data-testid="page-title">
          {t('logistics.receipt.title')}
        </Typography.Title>
        <Segmented
          aria-label="Language"
          value={i18n.language.startsWith('zh') ? 'zh-CN' : 'en'}
          options={[
            { value: 'en', label: 'English' },
            { value: 'zh-CN', label: '中文' },
          ]}
          onChange={(value) => void i18n.changeLanguage(String(value))}
        />
      </Space>
      {detail.isPending && <Spin />}
      {detail.isError && (
        <Result status="warning" title={t('logistics.receipt.invalid')} subTitle={detail.error.message} />
      )}
      {d && (
        <>
          <Typography.Paragraph>{t('logistics.receipt.intro')}</Typography.Paragraph>
          <DeliveryDetailView
            detail={d}
            actions={
              <Button
                size="small"
                onClick={() => void downloadNote({ token }, 'pdf').catch(() => undefined)}
                data-testid="receipt-note"
              >
                {t('logistics.delivery.note')}
              </Button>
            }
          />
          {d.state === 2 && (
            <Alert style={{ marginTop: 12 }} type="info" showIcon title={t('logistics.receipt.notArrived')} />
          )}
          {d.state === 3 && (
            <Card style={{ marginTop: 12 }} title={t('logistics.receiving.receipt')}>
              <Form form={form} layout="vertical" initialValues={{ accepted: true }}>
                <Form.Item name="accepted" label={t('logistics.receiving.decision')}>
                  <Radio.Group
                    options={[
                      { value: true, label: t('logistics.receiving.accept') },
                      { value: false, label: t('logistics.receiving.reject') },
                    ]}
                  />
                </Form.Item>
                <Form.Item name="remarks" label={t('logistics.delivery.field.remarks')}>
                  <Input.TextArea maxLength={500} rows={2} />
                </Form.Item>
                <Form.Item label={t('logistics.receiving.photo')}>
                  <PhotoPicker
                    testId="receipt-photo"
                    value={photo}
                    onChange={setPhoto}
                    upload={async (file) =>
                      (
                        await uploadFile<{ url: string }>(DELIVERY_PATHS.linkPhoto, file, file.name, {
                          token,
                        })
                      ).url
                    }
                  />
                </Form.Item>
                <Form.Item
                  name="signerName"
                  label={t('logistics.receipt.signerName')}
                  rules={[{ required: true, whitespace: true, message: t('logistics.delivery.required') }]}
                >
                  <Input maxLength={50} data-testid="receipt-name" />
                </Form.Item>
                <Form.Item label={t('logistics.receipt.signature')} required>
                  <SignaturePad onChange={setSignature} />
                </Form.Item>
                <Button
                  type="primary"
                  onClick={submit}
                  disabled={!signature}
                  loading={receive.isPending}
                  data-testid="receipt-submit"
                >
                  {t('logistics.receipt.submit')}
                </Button>
              </Form>
            </Card>
          )}
          {receive.isSuccess && (
            <Alert style={{ marginTop: 12 }} type="success" showIcon title={t('logistics.receipt.done')} />
          )}
        </>
      )}
    </main>
  );
}

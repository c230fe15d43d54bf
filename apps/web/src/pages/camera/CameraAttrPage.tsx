import type { DeviceView, EquipmentItem, Page, SaveCameraRequest } from '@coldchain/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Form, Input, InputNumber, Select, Space, Spin, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { request } from '../../api/request';
import { useCamera, usePlatformAccounts, useSaveCamera } from './api';
import { CAMERA_LIST_PATH, cameraDetailUrl } from './paths';

interface Values {
  name: string;
  serial: string;
  type?: string;
  platformAccountId: string;
  channel?: number;
  streamUrl?: string;
  equipmentIds?: string[];
  deviceIds?: string[];
}

/** Choices for what a camera watches: the caller's equipment and monitors (one page of 100 each). */
function useWatchChoices() {
  const equipment = useQuery({
    queryKey: ['camera', 'choices', 'equipment'],
    queryFn: () =>
      request<Page<EquipmentItem>>('/api/equipment/pageEquipment', { pageNum: 1, pageSize: 100 }),
    retry: false,
  });
  const devices = useQuery({
    queryKey: ['camera', 'choices', 'devices'],
    queryFn: () => request<Page<DeviceView>>('/api/device/pageDevices', { pageNum: 1, pageSize: 200 }),
    retry: false,
  });
  return {
    equipment: (equipment.data?.list ?? []).map((e) => ({ value: e.id, label: e.name })),
    devices: (devices.data?.list ?? []).map((d) => ({ value: d.id, label: `${d.name} (${d.serial})` })),
  };
}

/** `cameraAttr`: adds a camera, or edits the camera `id`: its platform, address and what it watches. */
export default function CameraAttrPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get('id');
  const [form] = Form.useForm<Values>();
  const camera = useCamera(id);
  const accounts = usePlatformAccounts();
  const choices = useWatchChoices();
  const save = useSaveCamera();
  const accountId = Form.useWatch('platformAccountId', form);
  const platform = accounts.data?.list.find((a) => a.id === accountId)?.platform;

  useEffect(() => {
    const c = camera.data;
    if (!c) return;
    form.setFieldsValue({
      name: c.name,
      serial: c.serial,
      type: c.type,
      platformAccountId: c.platformAccountId,
      channel: c.channel,
      streamUrl: c.streamUrl,
      equipmentIds: c.equipment.map((e) => e.id),
      deviceIds: c.devices.map((d) => d.id),
    });
  }, [camera.data, form]);

  const submit = async (values: Values) => {
    const body: SaveCameraRequest = {
      ...(id ? { id } : {}),
      name: values.name.trim(),
      serial: values.serial.trim(),
      type: values.type?.trim() ?? '',
      platformAccountId: values.platformAccountId,
      channel: values.channel ?? 1,
      streamUrl: platform === 'direct' ? (values.streamUrl?.trim() ?? '') : '',
      equipmentIds: values.equipmentIds ?? [],
      deviceIds: values.deviceIds ?? [],
    };
    try {
      const saved = await save.mutateAsync(body);
      navigate(cameraDetailUrl(saved.id));
    } catch {
      // The request wrapper showed the server's message; the form stays to correct it.
    }
  };

  const label = (field: string) => t(`camera.field.${field}`);
  const required = (field: string) => ({
    required: true,
    whitespace: true,
    message: t('camera.required', { field: label(field) }),
  });
  if (id && camera.isLoading) return <Spin />;
  return (
    <div>
      <Typography.Title level={2} data-testid="page-title">
        {t(id ? 'camera.editTitle' : 'camera.addTitle')}
      </Typography.Title>
      <Card>
        <Form
          form={form}
          layout="vertical"
          onFinish={submit}
          initialValues={{ channel: 1 }}
          style={{ maxWidth: 640 }}
        >
          <Form.Item
            name="name"
            label={label('name')}
            rules={[required('name'), { min: 2, max: 100, message: t('camera.nameRule') }]}
          >
            <Input maxLength={100} data-testid="camera-name" />
          </Form.Item>
          <Form.Item
            name="platformAccountId"
            label={label('platformAccountId')}
            rules={[{ required: true, message: t('camera.required', { field: label('platformAccountId') }) }]}
          >
            <Select
              data-testid="camera-account"
              options={(accounts.data?.list ?? []).map((a) => ({
                value: a.id,
                label: `${a.name} · ${t(`camera.platform.${a.platform}`)}`,
              }))}
              notFoundContent={t('camera.account.empty')}
            />
          </Form.Item>
          <Form.Item name="serial" label={label('serial')} rules={[required('serial'), { max: 64 }]}>
            <Input maxLength={64} data-testid="camera-serial" />
          </Form.Item>
          <Form.Item name="type" label={label('type')}>
            <Input maxLength={50} data-testid="camera-type" />
          </Form.Item>
          <Form.Item name="channel" label={label('channel')}>
            <InputNumber min={1} max={256} precision={0} data-testid="camera-channel" />
          </Form.Item>
          {platform === 'direct' && (
            <Form.Item
              name="streamUrl"
              label={label('streamUrl')}
              extra={t('camera.streamUrlHelp')}
              rules={[
                required('streamUrl'),
                {
                  pattern: /^(https?:\/\/\S+|\/api\/camera\/demo\/[\w.-]+)$/i,
                  message: t('camera.streamUrlRule'),
                },
              ]}
            >
              <Input maxLength={500} placeholder="https://…/index.m3u8" data-testid="camera-stream-url" />
            </Form.Item>
          )}
          <Form.Item name="equipmentIds" label={label('equipmentIds')} extra={t('camera.watchHelp')}>
            <Select
              mode="multiple"
              options={choices.equipment}
              optionFilterProp="label"
              data-testid="camera-equipment"
            />
          </Form.Item>
          <Form.Item name="deviceIds" label={label('deviceIds')}>
            <Select
              mode="multiple"
              options={choices.devices}
              optionFilterProp="label"
              data-testid="camera-devices"
            />
          </Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="camera-save">
              {t('camera.save')}
            </Button>
            <Button onClick={() => navigate(id ? cameraDetailUrl(id) : CAMERA_LIST_PATH)}>
              {t('camera.cancel')}
            </Button>
          </Space>
        </Form>
      </Card>
    </div>
  );
}

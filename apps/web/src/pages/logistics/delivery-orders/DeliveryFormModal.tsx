import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import type { DeliveryDetail, SaveDeliveryRequest } from '@coldchain/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Col, DatePicker, Form, Input, InputNumber, Modal, Row, Select, Space } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { pageDevices } from '../../devices/queries';
import { useAddresses } from '../addresses/api';
import { useSaveDelivery } from './api';

interface Values {
  senderAddressId: string;
  receiverAddressId: string;
  goods: Array<{ name: string; quantity: string; batch?: string }>;
  tempMin: number;
  tempMax: number;
  humidityMin?: number | null;
  humidityMax?: number | null;
  deviceIds: string[];
  carrier?: string;
  vehicle?: string;
  plannedDeparture?: Dayjs | null;
  plannedArrival?: Dayjs | null;
  remarks?: string;
}

/** The order being edited as form values; a new order starts at 2-8 °C with one line of goods. */
function initialValues(order: DeliveryDetail | null, addressIds: Map<string, string>): Partial<Values> {
  if (!order) return { tempMin: 2, tempMax: 8, goods: [{ name: '', quantity: '' }] };
  return {
    senderAddressId: addressIds.get(order.sender.name),
    receiverAddressId: addressIds.get(order.receiver.name),
    goods: order.goods,
    tempMin: order.tempMin,
    tempMax: order.tempMax,
    humidityMin: order.humidityMin,
    humidityMax: order.humidityMax,
    deviceIds: order.monitors.map((m) => m.deviceId),
    carrier: order.carrier,
    vehicle: order.vehicle,
    plannedDeparture: order.plannedDeparture ? dayjs(order.plannedDeparture) : null,
    plannedArrival: order.plannedArrival ? dayjs(order.plannedArrival) : null,
    remarks: order.remarks,
  };
}

function toRequest(values: Values, id: string | undefined): SaveDeliveryRequest {
  return {
    ...(id ? { id } : {}),
    senderAddressId: values.senderAddressId,
    receiverAddressId: values.receiverAddressId,
    goods: values.goods.map((g) => ({
      name: g.name.trim(),
      quantity: g.quantity.trim(),
      ...(g.batch?.trim() ? { batch: g.batch.trim() } : {}),
    })),
    tempMin: values.tempMin,
    tempMax: values.tempMax,
    humidityMin: values.humidityMin ?? null,
    humidityMax: values.humidityMax ?? null,
    deviceIds: values.deviceIds,
    carrier: values.carrier?.trim() ?? '',
    vehicle: values.vehicle?.trim() ?? '',
    plannedDeparture: values.plannedDeparture ? values.plannedDeparture.valueOf() : null,
    plannedArrival: values.plannedArrival ? values.plannedArrival.valueOf() : null,
    remarks: values.remarks?.trim() ?? '',
  };
}

/** Creates a delivery order, or edits `order` while it is still created. */
export function DeliveryFormModal({ order, onClose }: { order: DeliveryDetail | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const save = useSaveDelivery();
  const addresses = useAddresses({ pageNum: 1, pageSize: 100 });
  const devices = useQuery({
    queryKey: ['logistics', 'delivery-devices'],
    queryFn: () => pageDevices({ pageNum: 1, pageSize: 200 }),
  });
  const f = (key: string) => t(`logistics.delivery.field.${key}`);
  const required = (label: string) => ({
    required: true,
    message: t('logistics.address.required', { field: label }),
  });
  const addressOptions = (addresses.data?.list ?? []).map((a) => ({ value: a.id, label: a.name }));
  const byName = new Map((addresses.data?.list ?? []).map((a) => [a.name, a.id]));

  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    try {
      await save.mutateAsync(toRequest(values, order?.id));
      onClose();
    } catch {
      // The request wrapper showed the server's message; the dialog stays open to correct it.
    }
  };

  const loaded = addresses.isSuccess;
  return (
    <Modal
      open
      width={760}
      title={t(order ? 'logistics.delivery.editTitle' : 'logistics.delivery.addTitle')}
      okText={t('logistics.delivery.save')}
      cancelText={t('logistics.delivery.dismiss')}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={save.isPending}
      okButtonProps={{ 'data-testid': 'delivery-save' }}
      destroyOnHidden
    >
      {loaded && addressOptions.length < 2 && (
        <Alert
          type="warning"
          showIcon
          title={t('logistics.delivery.noAddresses')}
          style={{ marginBottom: 12 }}
        />
      )}
      {loaded && (
        <Form form={form} layout="vertical" initialValues={initialValues(order, byName)} requiredMark>
          <Row gutter={12}>
            <Col xs={24} md={12}>
              <Form.Item
                name="senderAddressId"
                label={f('senderAddressId')}
                rules={[required(f('senderAddressId'))]}
              >
                <Select
                  options={addressOptions}
                  data-testid="delivery-sender"
                  showSearch
                  optionFilterProp="label"
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="receiverAddressId"
                label={f('receiverAddressId')}
                rules={[required(f('receiverAddressId'))]}
              >
                <Select
                  options={addressOptions}
                  data-testid="delivery-receiver"
                  showSearch
                  optionFilterProp="label"
                />
              </Form.Item>
            </Col>
          </Row>
          <Form.List name="goods">
            {(fields, { add, remove }) => (
              <>
                {fields.map((field, index) => (
                  <Row gutter={8} key={field.key} align="top">
                    <Col xs={24} md={10}>
                      <Form.Item
                        name={[field.name, 'name']}
                        label={index === 0 ? f('goodsName') : undefined}
                        rules={[required(f('goodsName'))]}
                      >
                        <Input
                          maxLength={100}
                          data-testid={`delivery-goods-name-${index}`}
                          aria-label={f('goodsName')}
                        />
                      </Form.Item>
                    </Col>
                    <Col xs={10} md={6}>
                      <Form.Item
                        name={[field.name, 'quantity']}
                        label={index === 0 ? f('quantity') : undefined}
                        rules={[required(f('quantity'))]}
                      >
                        <Input
                          maxLength={50}
                          data-testid={`delivery-goods-quantity-${index}`}
                          aria-label={f('quantity')}
                        />
                      </Form.Item>
                    </Col>
                    <Col xs={10} md={6}>
                      <Form.Item name={[field.name, 'batch']} label={index === 0 ? f('batch') : undefined}>
                        <Input maxLength={50} aria-label={f('batch')} />
                      </Form.Item>
                    </Col>
                    <Col xs={4} md={2} style={{ paddingTop: index === 0 ? 30 : 0 }}>
                      {fields.length > 1 && (
                        <Button
                          type="text"
                          icon={<MinusCircleOutlined />}
                          aria-label={t('logistics.delivery.removeGoods')}
                          onClick={() => remove(field.name)}
                        />
                      )}
                    </Col>
                  </Row>
                ))}
                <Button
                  icon={<PlusOutlined />}
                  onClick={() => add({ name: '', quantity: '' })}
                  style={{ marginBottom: 16 }}
                >
                  {t('logistics.delivery.addGoods')}
                </Button>
              </>
            )}
          </Form.List>
          <Row gutter={12}>
            <Col xs={12} md={6}>
              <Form.Item name="tempMin" label={f('tempMin')} rules={[required(f('tempMin'))]}>
                <InputNumber style={{ width: '100%' }} data-testid="delivery-temp-min" />
              </Form.Item>
            </Col>
            <Col xs={12} md={6}>
              <Form.Item name="tempMax" label={f('tempMax')} rules={[required(f('tempMax'))]}>
                <InputNumber style={{ width: '100%' }} data-testid="delivery-temp-max" />
              </Form.Item>
            </Col>
            <Col xs={12} md={6}>
              <Form.Item name="humidityMin" label={f('humidityMin')}>
                <InputNumber style={{ width: '100%' }} min={0} max={100} />
              </Form.Item>
            </Col>
            <Col xs={12} md={6}>
              <Form.Item name="humidityMax" label={f('humidityMax')}>
                <InputNumber style={{ width: '100%' }} min={0} max={100} />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item name="deviceIds" label={f('deviceIds')} rules={[required(f('deviceIds'))]}>
            <Select
              mode="multiple"
              showSearch
              optionFilterProp="label"
              loading={devices.isPending}
              data-testid="delivery-devices"
              options={(devices.data?.list ?? []).map((d) => ({
                value: d.id,
                label: `${d.serial} ${d.name}`,
              }))}
            />
          </Form.Item>
          <Row gutter={12}>
            <Col xs={24} md={12}>
              <Form.Item name="carrier" label={f('carrier')}>
                <Input maxLength={100} data-testid="delivery-carrier" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="vehicle" label={f('vehicle')}>
                <Input maxLength={50} data-testid="delivery-vehicle" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="plannedDeparture" label={f('plannedDeparture')}>
                <DatePicker showTime style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="plannedArrival" label={f('plannedArrival')}>
                <DatePicker showTime style={{ width: '100%' }} />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item name="remarks" label={f('remarks')}>
            <Input.TextArea maxLength={500} rows={2} />
          </Form.Item>
          <Space />
        </Form>
      )}
    </Modal>
  );
}

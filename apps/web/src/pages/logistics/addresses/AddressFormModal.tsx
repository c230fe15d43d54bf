import { type AddressView, isMobile, type SaveAddressRequest } from '@coldchain/contract';
import { Col, Form, Input, InputNumber, Modal, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSaveAddress } from './api';

interface Values {
  name: string;
  contact: string;
  phone: string;
  region?: string;
  address: string;
  lng?: number | null;
  lat?: number | null;
  remarks?: string;
  receiverCompanyCode?: string;
}

function initialValues(address: AddressView | null): Partial<Values> {
  if (!address) return {};
  return {
    name: address.name,
    contact: address.contact,
    phone: address.phone,
    region: address.region,
    address: address.address,
    lng: address.lng,
    lat: address.lat,
    remarks: address.remarks,
    receiverCompanyCode: address.receiverCompany?.code ?? '',
  };
}

/** What the form sends: trimmed text; both halves of the position or neither. */
function toRequest(values: Values, id: string | undefined): SaveAddressRequest {
  const hasPosition = values.lng != null && values.lat != null;
  return {
    ...(id ? { id } : {}),
    name: values.name.trim(),
    contact: values.contact.trim(),
    phone: values.phone.trim(),
    region: values.region?.trim() ?? '',
    address: values.address.trim(),
    lng: hasPosition ? values.lng : null,
    lat: hasPosition ? values.lat : null,
    remarks: values.remarks?.trim() ?? '',
    receiverCompanyCode: values.receiverCompanyCode?.trim() ?? '',
  };
}

/** Adds an address, or edits `address`; the server's refusal stays in the dialog's toast. */
export function AddressFormModal({ address, onClose }: { address: AddressView | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const save = useSaveAddress();
  const required = (label: string) => ({
    required: true,
    whitespace: true,
    message: t('logistics.address.required', { field: label }),
  });

  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    try {
      await save.mutateAsync(toRequest(values, address?.id));
      onClose();
    } catch {
      // The request wrapper showed the server's message; the dialog stays open to correct it.
    }
  };

  const label = (field: string) => t(`logistics.address.field.${field}`);
  return (
    <Modal
      open
      title={t(address ? 'logistics.address.editTitle' : 'logistics.address.addTitle')}
      okText={t('logistics.address.save')}
      cancelText={t('logistics.address.cancel')}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={save.isPending}
      okButtonProps={{ 'data-testid': 'address-save' }}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={initialValues(address)} onFinish={submit}>
        <Form.Item name="name" label={label('name')} rules={[required(label('name'))]}>
          <Input maxLength={100} data-testid="address-name" autoFocus />
        </Form.Item>
        <Row gutter={12}>
          <Col xs={24} sm={12}>
            <Form.Item name="contact" label={label('contact')} rules={[required(label('contact'))]}>
              <Input maxLength={50} data-testid="address-contact" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="phone"
              label={label('phone')}
              rules={[
                required(label('phone')),
                {
                  validator: (_, value: string | undefined) =>
                    !value?.trim() || isMobile(value.trim())
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('logistics.address.phoneRule'))),
                },
              ]}
            >
              <Input maxLength={20} inputMode="tel" data-testid="address-phone" />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="region" label={label('region')}>
          <Input
            maxLength={255}
            placeholder={t('logistics.address.regionPlaceholder')}
            data-testid="address-region"
          />
        </Form.Item>
        <Form.Item name="address" label={label('address')} rules={[required(label('address'))]}>
          <Input maxLength={255} data-testid="address-address" />
        </Form.Item>
        <Row gutter={12}>
          <Col xs={12}>
            <Form.Item
              name="lng"
              label={label('lng')}
              dependencies={['lat']}
              rules={[
                ({ getFieldValue }) => ({
                  validator: (_, value: number | null | undefined) =>
                    (value == null) === (getFieldValue('lat') == null)
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('logistics.address.positionPair'))),
                }),
              ]}
            >
              <InputNumber
                min={-180}
                max={180}
                step={0.000001}
                style={{ width: '100%' }}
                data-testid="address-lng"
              />
            </Form.Item>
          </Col>
          <Col xs={12}>
            <Form.Item name="lat" label={label('lat')} dependencies={['lng']}>
              <InputNumber
                min={-90}
                max={90}
                step={0.000001}
                style={{ width: '100%' }}
                data-testid="address-lat"
              />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item
          name="receiverCompanyCode"
          label={t('logistics.address.receiverCode')}
          extra={t('logistics.address.receiverHelp')}
          rules={[{ pattern: /^\s*(\d{12})?\s*$/, message: t('logistics.address.receiverRule') }]}
        >
          <Input maxLength={12} inputMode="numeric" data-testid="address-receiver-code" />
        </Form.Item>
        <Form.Item name="remarks" label={label('remarks')}>
          <Input.TextArea maxLength={255} rows={2} data-testid="address-remarks" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

import { type DockingPlatformView, DockingProtocols } from '@coldchain/contract';
import { Form, Input, Modal, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSavePlatform } from './api';

interface Fields {
  name: string;
  protocol: string;
  endpoint: string;
  keyId: string;
  secret?: string;
  offered: boolean;
}

/** Adds or edits a platform; the secret is write-only: left empty on an edit, the kept one stays. */
export function PlatformModal({
  editing,
  onClose,
}: {
  editing: DockingPlatformView | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Fields>();
  const save = useSavePlatform();
  const submit = async () => {
    const fields = await form.validateFields();
    try {
      await save.mutateAsync({
        ...(editing ? { id: editing.id } : {}),
        ...fields,
        secret: fields.secret ? fields.secret : undefined,
      } as never);
      onClose();
    } catch {
      // The request wrapper showed the server's message.
    }
  };
  return (
    <Modal
      open
      title={t(editing ? 'platformDock.operator.editPlatform' : 'platformDock.operator.addPlatform')}
      okText={t('platformDock.common.save')}
      cancelText={t('platformDock.common.cancel')}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={save.isPending}
      okButtonProps={{ 'data-testid': 'platform-save' }}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={
          editing
            ? { ...editing, secret: '' }
            : { protocol: DockingProtocols[0], offered: true, name: '', endpoint: '', keyId: '' }
        }
      >
        <Form.Item
          name="name"
          label={t('platformDock.operator.name')}
          rules={[lengthRule(2, 100, t('platformDock.operator.nameRule'))]}
        >
          <Input data-testid="platform-name" />
        </Form.Item>
        <Form.Item name="protocol" label={t('platformDock.operator.protocol')}>
          <Select
            options={DockingProtocols.map((p) => ({ value: p, label: t(`platformDock.protocols.${p}`) }))}
          />
        </Form.Item>
        <Form.Item
          name="endpoint"
          label={t('platformDock.operator.endpoint')}
          rules={[
            {
              required: true,
              pattern: /^https?:\/\/\S+$/i,
              message: t('platformDock.operator.endpointRule'),
            },
          ]}
        >
          <Input placeholder="https://" data-testid="platform-endpoint" />
        </Form.Item>
        <Form.Item
          name="keyId"
          label={t('platformDock.operator.keyId')}
          rules={[lengthRule(1, 200, t('platformDock.operator.keyIdRule'))]}
        >
          <Input data-testid="platform-key-id" />
        </Form.Item>
        <Form.Item
          name="secret"
          label={t('platformDock.operator.secret')}
          extra={editing ? t('platformDock.operator.secretKept') : undefined}
          rules={[
            lengthRule(editing ? 0 : 8, 500, t('platformDock.operator.secretRule'), editing ? 8 : undefined),
          ]}
        >
          <Input.Password autoComplete="new-password" data-testid="platform-secret" />
        </Form.Item>
        <Form.Item name="offered" label={t('platformDock.operator.offered')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** A trimmed length between min and max; `orEmptyMin`: empty is fine, otherwise at least that. */
function lengthRule(min: number, max: number, message: string, orEmptyMin?: number) {
  return {
    validator: (_: unknown, value: string | undefined) => {
      const length = (value ?? '').trim().length;
      const fine =
        orEmptyMin !== undefined
          ? length === 0 || (length >= orEmptyMin && length <= max)
          : length >= min && length <= max;
      return fine ? Promise.resolve() : Promise.reject(new Error(message));
    },
  };
}

import type { CreatedOpenApiKey } from '@coldchain/contract';
import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCreateKey } from './api';

/** "Create key": a name of 2-50 characters; the answer (with the secret) goes to `onCreated`. */
export function CreateKeyModal({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (created: CreatedOpenApiKey) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string }>();
  const create = useCreateKey();

  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    // The form shows what is wrong with the name.
    if (!values) return;
    const { name } = values;
    try {
      const created = await create.mutateAsync({ name: name.trim() });
      onCreated(created);
    } catch {
      // The request wrapper showed the server's message; the dialog stays open to correct it.
    }
  };

  return (
    <Modal
      open
      title={t('openApi.keys.createTitle')}
      okText={t('openApi.keys.create')}
      cancelText={t('openApi.common.cancel')}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={create.isPending}
      okButtonProps={{ 'data-testid': 'key-create-save' }}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item
          name="name"
          label={t('openApi.keys.name')}
          rules={[
            {
              validator: (_, value: string | undefined) => {
                const length = (value ?? '').trim().length;
                return length >= 2 && length <= 50
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('openApi.keys.nameRule')));
              },
            },
          ]}
        >
          <Input
            maxLength={50}
            placeholder={t('openApi.keys.namePlaceholder')}
            data-testid="key-name"
            autoFocus
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

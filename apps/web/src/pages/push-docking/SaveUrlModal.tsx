import { PushEvents, type PushUrlView, type SavedPushUrl } from '@coldchain/contract';
import { Checkbox, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSavePushUrl } from './api';

interface Values {
  name: string;
  url: string;
  events: string[];
}

/** Adds an address (`editing` null) or edits one; a new address's answer carries its secret. */
export function SaveUrlModal({
  editing,
  onClose,
  onSaved,
}: {
  editing: PushUrlView | null;
  onClose: () => void;
  onSaved: (saved: SavedPushUrl) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const save = useSavePushUrl();

  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    try {
      onSaved(
        await save.mutateAsync({
          ...(editing ? { id: editing.id } : {}),
          name: values.name.trim(),
          url: values.url.trim(),
          events: values.events as never,
        }),
      );
    } catch {
      // The request wrapper showed the server's message (e.g. an address it may not reach).
    }
  };

  return (
    <Modal
      open
      title={t(editing ? 'pushDock.save.editTitle' : 'pushDock.save.addTitle')}
      okText={t('pushDock.common.save')}
      cancelText={t('pushDock.common.cancel')}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={save.isPending}
      okButtonProps={{ 'data-testid': 'push-save' }}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{
          name: editing?.name ?? '',
          url: editing?.url ?? '',
          events: editing?.events ?? ['reading', 'alarm'],
        }}
      >
        <Form.Item
          name="name"
          label={t('pushDock.list.name')}
          rules={[
            {
              validator: (_, value: string | undefined) => {
                const length = (value ?? '').trim().length;
                return length >= 2 && length <= 50
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('pushDock.save.nameRule')));
              },
            },
          ]}
        >
          <Input maxLength={50} data-testid="push-name" autoFocus />
        </Form.Item>
        <Form.Item
          name="url"
          label={t('pushDock.list.url')}
          extra={t('pushDock.save.urlHelp')}
          rules={[
            {
              validator: (_, value: string | undefined) =>
                /^https?:\/\/\S+$/i.test((value ?? '').trim()) && (value ?? '').trim().length <= 2000
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('pushDock.save.urlRule'))),
            },
          ]}
        >
          <Input maxLength={2000} placeholder="https://" data-testid="push-url" />
        </Form.Item>
        <Form.Item
          name="events"
          label={t('pushDock.list.events')}
          rules={[{ type: 'array', min: 1, message: t('pushDock.save.eventsRule') }]}
        >
          <Checkbox.Group
            options={PushEvents.map((event) => ({ value: event, label: t(`pushDock.events.${event}`) }))}
            data-testid="push-events"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

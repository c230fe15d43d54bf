import { Form, type FormInstance, Input, Modal, Select } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../../router/notify';

/** The i18n namespace of a report page: data report backups or operation reports. */
export type ReportNs = 'reports' | 'operationReports';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The modal around a task form: "add" or "edit" title, save and cancel. Saving calls `onSave`; when
 * it succeeds the page says so and the modal closes (a failure is shown by the request wrapper).
 */
export function TaskFormShell<V>({
  ns,
  editing,
  form,
  initialValues,
  saving,
  onSave,
  onClose,
  children,
}: {
  ns: ReportNs;
  editing: boolean;
  form: FormInstance<V>;
  initialValues: Partial<V>;
  saving: boolean;
  onSave: (values: V) => Promise<unknown>;
  onClose: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const notify = useNotify();
  const submit = async (values: V) => {
    try {
      await onSave(values);
      notify({ type: 'success', content: t(`${ns}.task.saved`), duration: 3 });
      onClose();
    } catch {
      // Shown by the request wrapper.
    }
  };
  return (
    <Modal
      open
      title={t(editing ? `${ns}.task.edit` : `${ns}.task.add`)}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t(`${ns}.common.save`)}
      cancelText={t(`${ns}.common.cancel`)}
      okButtonProps={{ loading: saving, ...({ 'data-testid': 'task-save' } as object) }}
      destroyOnHidden
      mask={{ closable: false }}
    >
      <Form form={form} layout="vertical" onFinish={submit} initialValues={initialValues}>
        {children}
      </Form>
    </Modal>
  );
}

/** A task's name: required, trimmed by the caller, at most `max` characters. */
export function TaskNameField({ ns, max }: { ns: ReportNs; max: number }) {
  const { t } = useTranslation();
  return (
    <Form.Item
      name="name"
      label={t(`${ns}.field.name`)}
      rules={[
        { required: true, whitespace: true, message: t(`${ns}.rule.nameRequired`) },
        { max, message: t(`${ns}.rule.nameTooLong`, { max }) },
      ]}
    >
      <Input maxLength={max} data-testid="task-name" />
    </Form.Item>
  );
}

/**
 * Who gets a task's file: members (field `recipientIds` or `notifierIds`, test id `task-recipients`
 * or `task-notifiers`) and typed e-mail addresses (`emails`); at least one of the two is required.
 */
export function RecipientFields({
  ns,
  kind,
  max,
  members,
}: {
  ns: ReportNs;
  kind: 'recipients' | 'notifiers';
  max: number;
  members: { data?: { id: string; name: string }[]; isLoading: boolean };
}) {
  const { t } = useTranslation();
  const name = kind === 'recipients' ? 'recipientIds' : 'notifierIds';
  return (
    <>
      <Form.Item name={name} label={t(`${ns}.field.${kind}`)}>
        <Select
          mode="multiple"
          showSearch={{ optionFilterProp: 'label' }}
          loading={members.isLoading}
          options={(members.data ?? []).map((m) => ({ value: m.id, label: m.name }))}
          placeholder={t(`${ns}.task.pickMembers`)}
          maxCount={max}
          data-testid={`task-${kind}`}
        />
      </Form.Item>
      <Form.Item
        name="emails"
        label={t(`${ns}.field.emails`)}
        dependencies={[name]}
        rules={[
          ({ getFieldValue }) => ({
            validator: async (_, emails: string[] = []) => {
              const bad = emails.find((e) => !EMAIL.test(e.trim()));
              if (bad) throw new Error(t(`${ns}.rule.emailInvalid`, { email: bad }));
              const people = (getFieldValue(name) as string[] | undefined) ?? [];
              if (emails.length + people.length === 0) throw new Error(t(`${ns}.rule.${kind}Required`));
            },
          }),
        ]}
      >
        <Select
          mode="tags"
          tokenSeparators={[',', ';', ' ']}
          open={false}
          suffixIcon={null}
          placeholder={t(`${ns}.task.typeEmails`)}
          data-testid="task-emails"
        />
      </Form.Item>
    </>
  );
}

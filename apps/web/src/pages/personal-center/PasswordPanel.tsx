import { Alert, Button, Form } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../router/notify';
import { updatePassword } from './api';
import { PasswordFields } from './PasswordFields';

interface PasswordForm {
  oldPassword: string;
  password: string;
  confirmPassword: string;
}

/**
 * Change password (spec sections 2 and 5): old password, then the new one twice. The server
 * (`/api/user/updatePassword`) ends the user's other sessions; this one stays.
 */
export function PasswordPanel() {
  const { t } = useTranslation();
  const notify = useNotify();
  const [form] = Form.useForm<PasswordForm>();
  const [busy, setBusy] = useState(false);

  const submit = async (values: PasswordForm) => {
    setBusy(true);
    try {
      await updatePassword(values);
      notify({ type: 'success', content: t('profile.password.changed'), duration: 3 });
      form.resetFields();
    } catch {
      // Shown by the request wrapper.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form<PasswordForm>
      form={form}
      layout="vertical"
      style={{ maxWidth: 420 }}
      onFinish={(values) => void submit(values)}
      data-testid="password-panel"
    >
      <Alert type="info" showIcon message={t('profile.password.hint')} style={{ marginBottom: 16 }} />
      <PasswordFields kind="password" askOld />
      <Button type="primary" htmlType="submit" loading={busy} data-testid="password-submit">
        {t('profile.password.submit')}
      </Button>
    </Form>
  );
}

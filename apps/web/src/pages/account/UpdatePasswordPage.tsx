import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { useNotify } from '../../router/notify';
import { useAccessToken } from '../../session/queries';
import { clearSession } from '../../session/storage';
import { updatePassword } from './calls';
import { NewPasswordFields } from './NewPasswordFields';
import { PublicCard } from './PublicCard';

interface UpdatePasswordForm {
  oldPassword: string;
  password: string;
  confirmPassword: string;
}

/**
 * /updatePassword (public route, no layout): reached after msgCode 301 with a token that may only
 * change the password. After the change that token is gone, so the user logs in normally again.
 */
export default function UpdatePasswordPage() {
  const { t } = useTranslation();
  const token = useAccessToken();
  const navigate = useNavigate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  if (!token) return <Navigate to="/login" replace />;

  const submit = async (values: UpdatePasswordForm) => {
    setBusy(true);
    try {
      const { loggedOut } = await updatePassword(values);
      notify({ type: 'success', content: t('account.forget.done'), duration: 3 });
      if (loggedOut) {
        clearSession();
        queryClient.removeQueries({ queryKey: ['session'] });
        navigate('/login', { replace: true });
      } else {
        navigate('/home', { replace: true });
      }
    } catch {
      // The request wrapper showed the server's message.
    } finally {
      setBusy(false);
    }
  };

  return (
    <PublicCard title={t('account.updatePassword.title')}>
      <Alert type="warning" showIcon title={t('account.updatePassword.hint')} style={{ marginBottom: 16 }} />
      <Form<UpdatePasswordForm> layout="vertical" onFinish={submit}>
        <Form.Item
          name="oldPassword"
          label={t('account.oldPassword')}
          rules={[{ required: true, message: t('account.passwordRequired') }]}
        >
          <Input.Password autoComplete="current-password" data-testid="update-old" />
        </Form.Item>
        <NewPasswordFields labelKey="account.newPassword" testIdPrefix="update" />
        <Button type="primary" htmlType="submit" block loading={busy} data-testid="update-submit">
          {t('account.updatePassword.submit')}
        </Button>
      </Form>
    </PublicCard>
  );
}

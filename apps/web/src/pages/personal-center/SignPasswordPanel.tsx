import { Alert, Button, Form, Input, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../router/notify';
import { setSignPassword } from './api';
import { PasswordFields } from './PasswordFields';
import { useRefreshPersonal } from './queries';
import { requiredRule } from './rules';

interface SignForm {
  oldPassword?: string;
  loginPassword?: string;
  password: string;
  confirmPassword: string;
}

/**
 * The signature password that resolving alarms, exports and patrols ask for while the company's
 * audit signature is on (spec section 5): set, then changed with the current one, or with the
 * login password by one who forgot it (docs/decisions.md).
 */
export function SignPasswordPanel({ isSet }: { isSet: boolean }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const refresh = useRefreshPersonal();
  const [form] = Form.useForm<SignForm>();
  const [busy, setBusy] = useState(false);
  const [forgot, setForgot] = useState(false);

  const submit = async (values: SignForm) => {
    const { password, confirmPassword } = values;
    // Only the one proof the form shows travels.
    const proof = !isSet
      ? {}
      : forgot
        ? { loginPassword: values.loginPassword }
        : { oldPassword: values.oldPassword };
    setBusy(true);
    try {
      await setSignPassword({ password, confirmPassword, ...proof });
      notify({ type: 'success', content: t('profile.sign.saved'), duration: 3 });
      form.resetFields();
      setForgot(false);
      await refresh();
    } catch {
      // Shown by the request wrapper.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form<SignForm>
      form={form}
      layout="vertical"
      style={{ maxWidth: 420 }}
      onFinish={(values) => void submit(values)}
      data-testid="sign-panel"
    >
      <Alert
        type={isSet ? 'info' : 'warning'}
        showIcon
        title={t('profile.sign.hint')}
        description={isSet ? <Tag color="green">{t('profile.sign.isSet')}</Tag> : t('profile.sign.notSet')}
        style={{ marginBottom: 16 }}
        data-testid="sign-state"
      />
      {isSet && forgot && (
        <Form.Item
          name="loginPassword"
          label={t('profile.sign.loginPassword')}
          rules={[requiredRule(t, t('profile.sign.loginPassword'))]}
        >
          <Input.Password data-testid="sign-login-password" autoComplete="current-password" />
        </Form.Item>
      )}
      <PasswordFields kind="sign" askOld={isSet && !forgot} />
      {isSet && (
        <Button
          type="link"
          style={{ paddingInline: 0, marginBottom: 16, display: 'block' }}
          onClick={() => setForgot(!forgot)}
          data-testid="sign-forgot"
        >
          {t(forgot ? 'profile.sign.useOld' : 'profile.sign.forgot')}
        </Button>
      )}
      <Button type="primary" htmlType="submit" loading={busy} data-testid="sign-submit">
        {t(isSet ? 'profile.sign.change' : 'profile.sign.set')}
      </Button>
    </Form>
  );
}

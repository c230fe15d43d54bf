import { Alert, Button, Form, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../router/notify';
import { setSignPassword } from './api';
import { PasswordFields } from './PasswordFields';
import { useRefreshPersonal } from './queries';

interface SignForm {
  oldPassword?: string;
  password: string;
  confirmPassword: string;
}

/** The signature password that patrol records and exports ask for (spec section 5): set, then change. */
export function SignPasswordPanel({ isSet }: { isSet: boolean }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const refresh = useRefreshPersonal();
  const [form] = Form.useForm<SignForm>();
  const [busy, setBusy] = useState(false);

  const submit = async (values: SignForm) => {
    setBusy(true);
    try {
      await setSignPassword(
        isSet ? values : { password: values.password, confirmPassword: values.confirmPassword },
      );
      notify({ type: 'success', content: t('profile.sign.saved'), duration: 3 });
      form.resetFields();
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
        message={t('profile.sign.hint')}
        description={isSet ? <Tag color="green">{t('profile.sign.isSet')}</Tag> : t('profile.sign.notSet')}
        style={{ marginBottom: 16 }}
        data-testid="sign-state"
      />
      <PasswordFields kind="sign" askOld={isSet} />
      <Button type="primary" htmlType="submit" loading={busy} data-testid="sign-submit">
        {t(isSet ? 'profile.sign.change' : 'profile.sign.set')}
      </Button>
    </Form>
  );
}

import { MailOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Form, Input, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loginWithCode, sendLoginCode } from '../account/calls';
import { accountRules, codeRules } from '../account/form-rules';
import { SendCodeButton } from '../account/SendCodeButton';

interface CodeLoginValues {
  account: string;
  code: string;
}

/** Verification-code login (doLogin type 2): a code sent by e-mail or SMS instead of the password. */
export function CodeLoginForm({ onToken }: { onToken: (accessToken: string) => Promise<void> }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<CodeLoginValues>();
  const [busy, setBusy] = useState(false);

  const submit = async (values: CodeLoginValues) => {
    setBusy(true);
    try {
      const { accessToken } = await loginWithCode(values.account.trim(), values.code.trim());
      await onToken(accessToken);
    } catch {
      // The request wrapper has shown the server's message already.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form<CodeLoginValues> form={form} layout="vertical" onFinish={submit}>
      <Form.Item name="account" label={t('login.account')} rules={accountRules(t)}>
        <Input prefix={<UserOutlined />} autoComplete="username" data-testid="code-login-account" />
      </Form.Item>
      <Form.Item label={t('login.code')} required>
        <Space.Compact style={{ width: '100%' }}>
          <Form.Item name="code" noStyle rules={codeRules(t)}>
            <Input
              prefix={<MailOutlined />}
              maxLength={6}
              inputMode="numeric"
              autoComplete="one-time-code"
              data-testid="code-login-code"
            />
          </Form.Item>
          <SendCodeButton
            testId="code-login-send"
            beforeSend={() => form.validateFields(['account'])}
            send={() => sendLoginCode(form.getFieldValue('account').trim())}
          />
        </Space.Compact>
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={busy} data-testid="code-login-submit">
        {t('login.submit')}
      </Button>
    </Form>
  );
}

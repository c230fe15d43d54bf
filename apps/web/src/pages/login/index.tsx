import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Account } from '@coldchain/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Checkbox, Form, Input, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { logIn, rememberCredentials, rememberedCredentials } from '../../session/actions';
import { useClientConfig } from '../../session/queries';
import { LanguageSwitch } from './LanguageSwitch';

interface LoginForm {
  account: string;
  password: string;
  remember: boolean;
}

/** Only same-site paths are followed after login, so a crafted link cannot send the user away. */
export function safeRedirect(value: string | null): string {
  return value?.startsWith('/') && !value.startsWith('//') && !value.startsWith('/login') ? value : '/home';
}

export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const [busy, setBusy] = useState(false);
  const { data: config } = useClientConfig();
  const remembered = rememberedCredentials();

  const submit = async (values: LoginForm) => {
    setBusy(true);
    try {
      await logIn(queryClient, values.account.trim(), values.password);
      rememberCredentials(values.remember, values.account.trim(), values.password);
      navigate(safeRedirect(params.get('redirect')), { replace: true });
    } catch {
      // The request wrapper has shown the server's message already.
    } finally {
      setBusy(false);
    }
  };

  const accountForm = (
    <Form<LoginForm>
      layout="vertical"
      onFinish={submit}
      initialValues={{
        account: remembered?.account ?? '',
        password: remembered?.password ?? '',
        remember: !!remembered,
      }}
    >
      <Form.Item
        name="account"
        label={t('login.account')}
        rules={[
          { required: true, message: t('login.accountRequired') },
          {
            validator: (_, value: string) =>
              !value || Account.safeParse(value).success
                ? Promise.resolve()
                : Promise.reject(new Error(t('login.accountInvalid'))),
          },
        ]}
      >
        <Input prefix={<UserOutlined />} autoComplete="username" data-testid="login-account" />
      </Form.Item>
      <Form.Item
        name="password"
        label={t('login.password')}
        rules={[{ required: true, message: t('login.passwordRequired') }]}
      >
        <Input.Password
          prefix={<LockOutlined />}
          autoComplete="current-password"
          data-testid="login-password"
        />
      </Form.Item>
      <div style={{ display: 'flex', justifyContent: 'space-between', marginBottom: 16 }}>
        <Form.Item name="remember" valuePropName="checked" noStyle>
          <Checkbox data-testid="login-remember">{t('login.remember')}</Checkbox>
        </Form.Item>
        <Link to="/forget">{t('login.forgot')}</Link>
      </div>
      <Button type="primary" htmlType="submit" block loading={busy} data-testid="login-submit">
        {t('login.submit')}
      </Button>
    </Form>
  );

  return (
    <div style={{ minHeight: '100vh', display: 'grid', placeItems: 'center', background: '#f0f2f5' }}>
      <Card style={{ width: 400, maxWidth: '92vw' }}>
        <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
          <Typography.Title level={3} style={{ margin: 0 }}>
            {config?.productName || t('common.productName')}
          </Typography.Title>
          <LanguageSwitch />
        </div>
        <Tabs
          items={[
            { key: 'account', label: t('login.tabAccount'), children: accountForm },
            {
              key: 'qr',
              label: t('login.tabQr'),
              children: <Typography.Paragraph>{t('login.qrComingSoon')}</Typography.Paragraph>,
            },
          ]}
        />
      </Card>
    </div>
  );
}

import { LockOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { Account, type LoginNeedsCode, VERIFICATION_CODE_PATTERN } from '@coldchain/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Checkbox, Form, Input, Spin, Tabs, Typography } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { logIn, rememberCredentials, rememberedCredentials, startSession } from '../../session/actions';
import { useClientConfig } from '../../session/queries';
import { deviceId, loginWithAddressCode } from '../account/calls';
import { CodeLoginForm } from './CodeLoginForm';
import { LanguageSwitch } from './LanguageSwitch';
import { QrLoginTab } from './QrLoginTab';

interface LoginForm {
  account: string;
  password: string;
  remember: boolean;
  code?: string;
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
  const [needCode, setNeedCode] = useState<LoginNeedsCode | null>(null);
  const { data: config } = useClientConfig();
  const remembered = rememberedCredentials();
  const addressCode = params.get('addressCode');
  const redirect = params.get('redirect');
  const addressTried = useRef(false);

  const enter = useCallback(() => navigate(safeRedirect(redirect), { replace: true }), [navigate, redirect]);

  // A kiosk or data-screen link (/login?addressCode=...) logs in by itself (docs/decisions.md).
  useEffect(() => {
    if (!addressCode || addressTried.current) return;
    addressTried.current = true;
    loginWithAddressCode(addressCode)
      .then((answer) => startSession(queryClient, answer.accessToken))
      .then(enter, () => navigate('/login', { replace: true }));
  }, [addressCode, queryClient, enter, navigate]);

  const onQrToken = useCallback(
    (token: string) => void startSession(queryClient, token).then(enter, () => undefined),
    [queryClient, enter],
  );

  const submit = async (values: LoginForm) => {
    setBusy(true);
    try {
      const account = values.account.trim();
      const asked = await logIn(queryClient, account, values.password, {
        deviceId: deviceId(),
        ...(needCode && values.code ? { code: values.code.trim() } : {}),
      });
      if (asked) {
        setNeedCode(asked);
        return;
      }
      rememberCredentials(values.remember, account, values.password);
      enter();
    } catch {
      // The request wrapper has shown the server's message already.
    } finally {
      setBusy(false);
    }
  };

  if (addressCode) {
    return (
      <div style={{ minHeight: '100vh', display: 'grid', placeItems: 'center' }}>
        <Spin description={t('login.addressCodeLogin')} data-testid="address-code-login">
          <div style={{ width: 200, height: 80 }} />
        </Spin>
      </div>
    );
  }

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
      {needCode && (
        <>
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 12 }}
            data-testid="login-code-hint"
            title={t('login.codeHint', {
              channel: t(needCode.channel === 'email' ? 'login.channelEmail' : 'login.channelSms'),
            })}
          />
          <Form.Item
            name="code"
            label={t('login.code')}
            rules={[
              { required: true, message: t('login.codeRequired') },
              { pattern: VERIFICATION_CODE_PATTERN, message: t('login.codeRequired') },
            ]}
          >
            <Input
              prefix={<SafetyOutlined />}
              maxLength={6}
              inputMode="numeric"
              autoComplete="one-time-code"
              data-testid="login-code"
            />
          </Form.Item>
        </>
      )}
      <div style={{ display: 'flex', justifyContent: 'space-between', marginBottom: 16 }}>
        <Form.Item name="remember" valuePropName="checked" noStyle>
          <Checkbox data-testid="login-remember">{t('login.remember')}</Checkbox>
        </Form.Item>
        <Link to="/forget">{t('login.forgot')}</Link>
      </div>
      <Button type="primary" htmlType="submit" block loading={busy} data-testid="login-submit">
        {t('login.submit')}
      </Button>
      <div style={{ marginTop: 12, textAlign: 'center' }}>
        <Link to="/register" data-testid="login-register">
          {t('login.register')}
        </Link>
      </div>
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
          destroyOnHidden
          items={[
            { key: 'account', label: t('login.tabAccount'), children: accountForm },
            {
              key: 'code',
              label: t('login.tabCode'),
              children: <CodeLoginForm onToken={(token) => startSession(queryClient, token).then(enter)} />,
            },
            { key: 'qr', label: t('login.tabQr'), children: <QrLoginTab onToken={onQrToken} /> },
          ]}
        />
      </Card>
    </div>
  );
}

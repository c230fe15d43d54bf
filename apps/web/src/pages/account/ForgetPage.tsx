import { Button, Form, Input, Space, Steps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useNotify } from '../../router/notify';
import { checkResetCode, resetPassword, sendResetCode, verifyAccount } from './calls';
import { accountRules, codeRules } from './form-rules';
import { NewPasswordFields } from './NewPasswordFields';
import { PublicCard } from './PublicCard';
import { SendCodeButton } from './SendCodeButton';

/**
 * /forget: password recovery in three steps (spec section 2): fill in the account, verify it with a
 * code, reset the password. The code is exchanged for a one-time ticket that the last step needs.
 */
export default function ForgetPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const notify = useNotify();
  const [step, setStep] = useState(0);
  const [account, setAccount] = useState('');
  const [ticket, setTicket] = useState('');
  const [busy, setBusy] = useState(false);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch {
      // The request wrapper showed the server's message.
    } finally {
      setBusy(false);
    }
  };

  const steps = [
    <Form<{ account: string }>
      key="account"
      layout="vertical"
      initialValues={{ account }}
      onFinish={(values) =>
        run(async () => {
          await verifyAccount(values.account.trim());
          setAccount(values.account.trim());
          setStep(1);
        })
      }
    >
      <Form.Item name="account" label={t('login.account')} rules={accountRules(t)}>
        <Input autoComplete="username" data-testid="forget-account" />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={busy} data-testid="forget-next">
        {t('account.forget.next')}
      </Button>
    </Form>,
    <Form<{ code: string }>
      key="verify"
      layout="vertical"
      onFinish={(values) =>
        run(async () => {
          const answer = await checkResetCode(account, values.code.trim());
          setTicket(answer.ticket);
          setStep(2);
        })
      }
    >
      <Form.Item label={t('account.account')}>
        <Input value={account} disabled data-testid="forget-account-shown" />
      </Form.Item>
      <Form.Item label={t('account.code')} required>
        <Space.Compact style={{ width: '100%' }}>
          <Form.Item name="code" noStyle rules={codeRules(t)}>
            <Input maxLength={6} inputMode="numeric" data-testid="forget-code" />
          </Form.Item>
          <SendCodeButton testId="forget-send-code" send={() => sendResetCode(account)} />
        </Space.Compact>
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={busy} data-testid="forget-verify">
        {t('account.forget.next')}
      </Button>
    </Form>,
    <Form<{ password: string; confirmPassword: string }>
      key="reset"
      layout="vertical"
      onFinish={(values) =>
        run(async () => {
          await resetPassword({ account, ticket, ...values });
          notify({ type: 'success', content: t('account.forget.done'), duration: 3 });
          navigate('/login', { replace: true });
        })
      }
    >
      <NewPasswordFields labelKey="account.newPassword" testIdPrefix="forget" />
      <Button type="primary" htmlType="submit" block loading={busy} data-testid="forget-submit">
        {t('account.forget.submit')}
      </Button>
    </Form>,
  ];

  return (
    <PublicCard title={t('account.forget.title')} width={520}>
      <Steps
        size="small"
        current={step}
        style={{ marginBottom: 24 }}
        items={[
          { title: t('account.forget.stepAccount') },
          { title: t('account.forget.stepVerify') },
          { title: t('account.forget.stepReset') },
        ]}
      />
      {steps[step]}
    </PublicCard>
  );
}

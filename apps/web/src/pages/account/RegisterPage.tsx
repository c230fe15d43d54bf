import { EMAIL_PATTERN, joinAreaCode } from '@coldchain/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Radio, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useNotify } from '../../router/notify';
import { logIn } from '../../session/actions';
import { safeRedirect } from '../login';
import { deviceId, fetchAreaCodes, registerAccount, sendRegisterCode } from './calls';
import { codeRules } from './form-rules';
import { NewPasswordFields } from './NewPasswordFields';
import { PublicCard } from './PublicCard';
import { SendCodeButton } from './SendCodeButton';

interface RegisterForm {
  kind: 'mobile' | 'email';
  areaCode: string;
  mobile: string;
  email: string;
  code: string;
  name?: string;
  password: string;
  confirmPassword: string;
}

const LOCAL_MOBILE = /^\d{5,14}$/;

/**
 * /register: an account is a mobile number (with an international area code) or an e-mail; a code
 * proves it; then the new account logs in and goes on to create or join a team (/addTeam).
 */
export default function RegisterPage() {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<RegisterForm>();
  const kind = Form.useWatch('kind', form) ?? 'mobile';
  const navigate = useNavigate();
  // Coming from an invitation (/invite?id=...), the new account goes back to it to join.
  const [params] = useSearchParams();
  const redirect = params.get('redirect');
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const areaCodes = useQuery({
    queryKey: ['public', 'areaCodes'],
    queryFn: fetchAreaCodes,
    staleTime: Infinity,
  });
  const chinese = i18n.language === 'zh-CN';

  const accountOf = (values: Pick<RegisterForm, 'kind' | 'areaCode' | 'mobile' | 'email'>) =>
    values.kind === 'email' ? values.email.trim() : joinAreaCode(values.areaCode, values.mobile);

  const submit = async (values: RegisterForm) => {
    setBusy(true);
    try {
      const account = accountOf(values);
      await registerAccount({
        account,
        code: values.code.trim(),
        password: values.password,
        ...(values.name?.trim() ? { name: values.name.trim() } : {}),
      });
      notify({ type: 'success', content: t('account.register.done'), duration: 3 });
      // A first login is trusted (the code just proved the account); anything else goes to /login.
      const needsCode = await logIn(queryClient, account, values.password, { deviceId: deviceId() }).catch(
        () => true,
      );
      const next = redirect ? safeRedirect(redirect) : '/addTeam';
      navigate(needsCode ? `/login${redirect ? `?redirect=${encodeURIComponent(next)}` : ''}` : next, {
        replace: true,
      });
    } catch {
      // The request wrapper showed the server's message.
    } finally {
      setBusy(false);
    }
  };

  return (
    <PublicCard title={t('account.register.title')}>
      <Form<RegisterForm>
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{ kind: 'mobile', areaCode: '+60', mobile: '', email: '' }}
      >
        <Form.Item name="kind">
          <Radio.Group
            optionType="button"
            options={[
              { value: 'mobile', label: t('account.register.byMobile') },
              { value: 'email', label: t('account.register.byEmail') },
            ]}
          />
        </Form.Item>
        {kind === 'mobile' ? (
          <Form.Item label={t('account.mobile')} required>
            <Space.Compact style={{ width: '100%' }}>
              <Form.Item name="areaCode" noStyle>
                <Select
                  style={{ width: 150 }}
                  aria-label={t('account.areaCode')}
                  data-testid="register-area-code"
                  showSearch={{ optionFilterProp: 'label' }}
                  options={(areaCodes.data ?? [{ code: '+60', en: 'Malaysia', cn: '马来西亚' }]).map((a) => ({
                    value: a.code,
                    label: `${a.code} ${chinese ? a.cn : a.en}`,
                  }))}
                />
              </Form.Item>
              <Form.Item
                name="mobile"
                noStyle
                rules={[
                  { required: true, message: t('account.mobileRequired') },
                  { pattern: LOCAL_MOBILE, message: t('account.mobileInvalid') },
                ]}
              >
                <Input autoComplete="tel-national" data-testid="register-mobile" />
              </Form.Item>
            </Space.Compact>
          </Form.Item>
        ) : (
          <Form.Item
            name="email"
            label={t('account.email')}
            rules={[
              { required: true, message: t('account.emailRequired') },
              { pattern: EMAIL_PATTERN, message: t('account.emailInvalid') },
            ]}
          >
            <Input autoComplete="email" data-testid="register-email" />
          </Form.Item>
        )}
        <Form.Item label={t('account.code')} required>
          <Space.Compact style={{ width: '100%' }}>
            <Form.Item name="code" noStyle rules={codeRules(t)}>
              <Input maxLength={6} inputMode="numeric" data-testid="register-code" />
            </Form.Item>
            <SendCodeButton
              testId="register-send-code"
              beforeSend={() => form.validateFields([kind === 'email' ? 'email' : 'mobile'])}
              send={() => sendRegisterCode(accountOf(form.getFieldsValue()))}
            />
          </Space.Compact>
        </Form.Item>
        <Form.Item
          name="name"
          label={t('account.name')}
          rules={[{ min: 2, max: 100, message: t('account.nameInvalid') }]}
        >
          <Input autoComplete="name" data-testid="register-name" />
        </Form.Item>
        <NewPasswordFields labelKey="account.password" testIdPrefix="register" />
        <Button type="primary" htmlType="submit" block loading={busy} data-testid="register-submit">
          {t('account.register.submit')}
        </Button>
        <div style={{ marginTop: 12, textAlign: 'center' }}>
          <Link to="/login">{t('account.register.haveAccount')}</Link>
        </div>
      </Form>
    </PublicCard>
  );
}

import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { confirmRules, passwordRules } from './form-rules';

interface Props {
  /** Register asks for a 'password'; recovery and the forced change ask for a 'new password'. */
  labelKey: 'account.password' | 'account.newPassword';
  /** Each page keeps its own test ids: `${prefix}-password` and `${prefix}-confirm`. */
  testIdPrefix: string;
}

/** The password a user chooses, typed twice; the form's fields are `password` and `confirmPassword`. */
export function NewPasswordFields({ labelKey, testIdPrefix }: Props) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item
        name="password"
        label={t(labelKey)}
        rules={passwordRules(t)}
        extra={t('account.passwordRule')}
      >
        <Input.Password autoComplete="new-password" data-testid={`${testIdPrefix}-password`} />
      </Form.Item>
      <Form.Item
        name="confirmPassword"
        label={t('account.confirmPassword')}
        dependencies={['password']}
        rules={confirmRules(t)}
      >
        <Input.Password autoComplete="new-password" data-testid={`${testIdPrefix}-confirm`} />
      </Form.Item>
    </>
  );
}

import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { matchesRule, passwordRule, requiredRule, signPasswordRule } from './rules';

/**
 * The login password and the signature password differ in their pattern and in whether the browser
 * may offer to remember them (it must not for the signature one).
 */
const KINDS = {
  password: { newRule: passwordRule, oldAutoComplete: 'current-password', newAutoComplete: 'new-password' },
  sign: { newRule: signPasswordRule, oldAutoComplete: 'off', newAutoComplete: 'off' },
} as const;

interface Props {
  /** Names both the texts (`profile.<kind>.old|new|confirm`) and the test ids (`<kind>-old|new|confirm`). */
  kind: keyof typeof KINDS;
  /** A password not set yet has no old one to prove. */
  askOld: boolean;
}

/** Old password (when there is one), then the new one twice; fields `oldPassword`, `password`, `confirmPassword`. */
export function PasswordFields({ kind, askOld }: Props) {
  const { t } = useTranslation();
  const { newRule, oldAutoComplete, newAutoComplete } = KINDS[kind];
  return (
    <>
      {askOld && (
        <Form.Item
          name="oldPassword"
          label={t(`profile.${kind}.old`)}
          rules={[requiredRule(t, t(`profile.${kind}.old`))]}
        >
          <Input.Password data-testid={`${kind}-old`} autoComplete={oldAutoComplete} />
        </Form.Item>
      )}
      <Form.Item name="password" label={t(`profile.${kind}.new`)} rules={[newRule(t)]}>
        <Input.Password data-testid={`${kind}-new`} autoComplete={newAutoComplete} />
      </Form.Item>
      <Form.Item
        name="confirmPassword"
        label={t(`profile.${kind}.confirm`)}
        dependencies={['password']}
        rules={[matchesRule(t, 'password')]}
      >
        <Input.Password data-testid={`${kind}-confirm`} autoComplete={newAutoComplete} />
      </Form.Item>
    </>
  );
}

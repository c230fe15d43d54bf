import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PERSONAL_CENTER } from '../layout/UserMenu';
import { useUserInfo } from '../session/queries';

/**
 * Whether the company in scope asks for the signature password (its audit signature switch,
 * sent as the session's `signCheck`). The server decides again on every signed call.
 */
export function useSignCheck(): boolean {
  return useUserInfo().data?.signCheck ?? false;
}

/** Whether the member may export at all (the session's `exportExcel`, set by the company administrator). */
export function useCanExport(): boolean {
  return useUserInfo().data?.exportExcel ?? true;
}

/**
 * The one signature-password field of every signed action (alarm resolve, exports, patrol),
 * named `signPassword` in the form it sits in. Drawn only while audit signature is on; the form
 * then sends it and the server checks it, counts wrong ones and writes the signature's meaning
 * to the trail. Use `signedBody` to add it to a request. `signing` draws it even while audit
 * signature is off, for actions that are themselves a signature (a signed report).
 */
export function SignPasswordField({ testId, signing = false }: { testId: string; signing?: boolean }) {
  const { t } = useTranslation();
  const signCheck = useSignCheck();
  if (!signCheck && !signing) return null;
  return (
    <Form.Item
      name="signPassword"
      label={t('common.signature.password')}
      extra={
        <>
          {t('common.signature.hint')}{' '}
          <Link to={`${PERSONAL_CENTER}?panel=signPassword`}>{t('common.signature.setOne')}</Link>
        </>
      }
      rules={[{ required: true, message: t('common.signature.required') }]}
    >
      <Input.Password autoComplete="off" data-testid={testId} />
    </Form.Item>
  );
}

/** The body of a signed call: the password only while it is asked for, so none travels otherwise. */
export function signedBody<T extends object>(
  signCheck: boolean,
  body: T,
  signPassword: string | undefined,
): T & { signPassword?: string } {
  return signCheck ? { ...body, signPassword } : body;
}

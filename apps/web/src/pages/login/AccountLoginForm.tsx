import type { LoginNeedsCode } from '@coldchain/contract';
import { type FormEvent, type InputHTMLAttributes, type ReactNode, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  type IconShape,
  LockIcon,
  SafetyIcon,
  ShellIcon,
  UserIcon,
  WarningIcon,
} from '../../router/shell-icon';

export interface AccountLogin {
  account: string;
  password: string;
  remember: boolean;
  code: string;
}

type Field = 'account' | 'password' | 'code';
type Errors = Partial<Record<Field, string>>;

/** The contract's rules for these fields load when the form first checks one (account-rule.ts). */
const loadRules = () => import('./account-rule');

interface Props {
  initial: Pick<AccountLogin, 'account' | 'password' | 'remember'>;
  /** Set when the server asked for the code it sent (an abnormal login). */
  needCode: LoginNeedsCode | null;
  busy: boolean;
  onSubmit: (values: AccountLogin) => void;
}

/**
 * Account and password login, drawn with plain elements in antd's look (login.css) because it is
 * the first screen of most visits (docs/performance.md, "Console weight"). Fields check as antd's
 * forms do: each as it changes, and all on submit, which focuses the first wrong one.
 */
export function AccountLoginForm({ initial, needCode, busy, onSubmit }: Props) {
  const { t } = useTranslation();
  const [values, setValues] = useState<AccountLogin>({ ...initial, code: '' });
  const [errors, setErrors] = useState<Errors>({});
  const checks = useRef<Record<Field, number>>({ account: 0, password: 0, code: 0 });
  const inputs = useRef<Partial<Record<Field, HTMLInputElement | null>>>({});

  const problem = async (field: Field, value: string): Promise<string | undefined> => {
    if (field === 'password') return value ? undefined : t('login.passwordRequired');
    if (field === 'code')
      return (await loadRules()).isVerificationCode(value) ? undefined : t('login.codeRequired');
    if (!value) return t('login.accountRequired');
    return (await loadRules()).isAccount(value) ? undefined : t('login.accountInvalid');
  };

  /** Checks one field; an answer that arrives after a newer check of the same field is dropped. */
  const check = async (field: Field, value: string): Promise<string | undefined> => {
    const run = ++checks.current[field];
    const found = await problem(field, value);
    if (run === checks.current[field]) setErrors((current) => ({ ...current, [field]: found }));
    return found;
  };

  const change = (field: Field, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    void check(field, value);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const fields: Field[] = needCode ? ['account', 'password', 'code'] : ['account', 'password'];
    const found = await Promise.all(fields.map((field) => check(field, values[field])));
    const first = fields.find((_, index) => found[index]);
    if (first) {
      inputs.current[first]?.focus();
      return;
    }
    onSubmit(values);
  };

  const field = (
    name: Field,
    label: string,
    icon: IconShape,
    input: InputHTMLAttributes<HTMLInputElement>,
  ) => (
    <div className="cc-field">
      <label htmlFor={`login-${name}`}>
        <span className="cc-required" aria-hidden="true">
          *
        </span>
        {label}
      </label>
      <span className={errors[name] ? 'cc-input cc-input-error' : 'cc-input'}>
        <ShellIcon shape={icon} className="cc-input-icon" />
        <input
          ref={(element) => {
            inputs.current[name] = element;
          }}
          id={`login-${name}`}
          name={name}
          value={values[name]}
          onChange={(event) => change(name, event.target.value)}
          required
          aria-invalid={!!errors[name]}
          aria-describedby={errors[name] ? `login-${name}-error` : undefined}
          data-testid={`login-${name}`}
          {...input}
        />
      </span>
      {errors[name] && (
        <div id={`login-${name}-error`} className="cc-field-error" role="alert">
          {errors[name]}
        </div>
      )}
    </div>
  );

  return (
    <form className="cc-login-form" onSubmit={submit} noValidate>
      {field('account', t('login.account'), UserIcon, { type: 'text', autoComplete: 'username' })}
      {field('password', t('login.password'), LockIcon, {
        type: 'password',
        autoComplete: 'current-password',
      })}
      {needCode && (
        <>
          <CodeHint>
            {t('login.codeHint', {
              channel: t(needCode.channel === 'email' ? 'login.channelEmail' : 'login.channelSms'),
            })}
          </CodeHint>
          {field('code', t('login.code'), SafetyIcon, {
            type: 'text',
            inputMode: 'numeric',
            maxLength: 6,
            autoComplete: 'one-time-code',
          })}
        </>
      )}
      <div className="cc-login-row">
        <label className="cc-checkbox">
          <input
            type="checkbox"
            checked={values.remember}
            onChange={(event) => setValues((current) => ({ ...current, remember: event.target.checked }))}
            data-testid="login-remember"
          />
          {t('login.remember')}
        </label>
        <Link to="/forget" className="cc-link">
          {t('login.forgot')}
        </Link>
      </div>
      <button type="submit" className="cc-button-primary" aria-busy={busy} data-testid="login-submit">
        {busy && <span className="cc-spinner cc-spinner-small" aria-hidden="true" />}
        {t('login.submit')}
      </button>
      <div className="cc-login-register">
        <Link to="/register" className="cc-link" data-testid="login-register">
          {t('login.register')}
        </Link>
      </div>
    </form>
  );
}

function CodeHint({ children }: { children: ReactNode }) {
  return (
    <div className="cc-alert-warning" role="alert" data-testid="login-code-hint">
      <ShellIcon shape={WarningIcon} className="cc-alert-icon" />
      <span>{children}</span>
    </div>
  );
}

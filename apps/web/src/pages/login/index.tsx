import type { LoginNeedsCode } from '@coldchain/contract';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { loadConsoleCatalogue } from '../../i18n';
import { ScreenLoading } from '../../router/lazy-screen';
import { logIn, rememberCredentials, rememberedCredentials, startSession } from '../../session/actions';
import { useClientConfig } from '../../session/queries';
import { deviceId, loginWithAddressCode } from '../account/calls';
import { type AccountLogin, AccountLoginForm } from './AccountLoginForm';
import { LanguageSwitch } from './LanguageSwitch';
import { LoginTabs } from './LoginTabs';
import './login.css';

/*
 * The login is the first screen of most visits, so it is drawn without antd and loads only what
 * the account form needs (docs/performance.md, "Console weight"). The code and QR tabs use antd
 * and load when opened, the code tab with the strings of the account pages it shares.
 */
const CodeLoginForm = lazy(() =>
  Promise.all([import('./CodeLoginForm'), loadConsoleCatalogue()]).then(([m]) => ({
    default: m.CodeLoginForm,
  })),
);
const QrLoginTab = lazy(() => import('./QrLoginTab').then((m) => ({ default: m.QrLoginTab })));

type TabKey = 'account' | 'code' | 'qr';

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
  const [tab, setTab] = useState<TabKey>('account');
  const { data: config } = useClientConfig();
  const [remembered] = useState(rememberedCredentials);
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

  const submit = async (values: AccountLogin) => {
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
      <div className="cc-login-page">
        <div className="cc-login-address" role="status" data-testid="address-code-login">
          <span className="cc-spinner" aria-hidden="true" />
          {t('login.addressCodeLogin')}
        </div>
      </div>
    );
  }

  return (
    <main className="cc-login-page">
      <section className="cc-login-card" aria-labelledby="login-title">
        <div className="cc-login-head">
          <h1 id="login-title">{config?.productName || t('common.productName')}</h1>
          <LanguageSwitch />
        </div>
        <LoginTabs
          label={t('login.title')}
          active={tab}
          onChange={setTab}
          tabs={[
            { key: 'account', label: t('login.tabAccount') },
            { key: 'code', label: t('login.tabCode') },
            { key: 'qr', label: t('login.tabQr') },
          ]}
        >
          {tab === 'account' && (
            <AccountLoginForm
              initial={{
                account: remembered?.account ?? '',
                password: remembered?.password ?? '',
                remember: !!remembered,
              }}
              needCode={needCode}
              busy={busy}
              onSubmit={(values) => void submit(values)}
            />
          )}
          {tab !== 'account' && (
            <Suspense fallback={<ScreenLoading />}>
              {tab === 'code' ? (
                <CodeLoginForm onToken={(token) => startSession(queryClient, token).then(enter)} />
              ) : (
                <QrLoginTab onToken={onQrToken} />
              )}
            </Suspense>
          )}
        </LoginTabs>
      </section>
    </main>
  );
}

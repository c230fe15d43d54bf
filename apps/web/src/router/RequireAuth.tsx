import { Spin } from 'antd';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { RequestError } from '../api/request';
import { useAccessToken, usePowers, useUserInfo } from '../session/queries';
import { clearSession } from '../session/storage';
import { useNotify } from './notify';

export function loginPathFor(path: string): string {
  return `/login?redirect=${encodeURIComponent(path)}`;
}

/**
 * Route guard of spec section 8: no token goes to /login with a redirect; when the user info or
 * the powers cannot be loaded the token is reset and the error shown before going there.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const token = useAccessToken();
  const location = useLocation();
  const navigate = useNavigate();
  const notify = useNotify();
  const { t } = useTranslation();
  const userInfo = useUserInfo();
  const powers = usePowers();
  const error = userInfo.error ?? powers.error;
  const here = location.pathname + location.search;

  useEffect(() => {
    if (!error) return;
    clearSession();
    // The request wrapper already showed its own message (311, HTTP faults, 500).
    if (!(error instanceof RequestError && error.shown)) {
      notify({ type: 'error', content: error.message || t('common.hasError'), duration: 5 });
    }
    navigate(loginPathFor(here), { replace: true });
  }, [error, here, navigate, notify, t]);

  if (!token) return <Navigate to={loginPathFor(here)} replace />;
  if (error || !userInfo.data || !powers.data) {
    return (
      <div style={{ padding: 48, textAlign: 'center' }}>
        <Spin aria-label={t('common.loading')} />
      </div>
    );
  }
  return children;
}

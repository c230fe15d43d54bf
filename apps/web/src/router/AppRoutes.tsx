import { type MenuEntry, MenuType } from '@coldchain/contract';
import { Spin } from 'antd';
import type { ReactElement } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { AppLayout } from '../layout/AppLayout';
import { flattenMenus } from '../layout/menu-model';
import ForgetPage from '../pages/account/ForgetPage';
import QrConfirmPage from '../pages/account/QrConfirmPage';
import RegisterPage from '../pages/account/RegisterPage';
import UpdatePasswordPage from '../pages/account/UpdatePasswordPage';
import { PublicComingSoonPage } from '../pages/coming-soon';
import HomePage from '../pages/home';
import LoginPage from '../pages/login';
import NotFoundPage from '../pages/not-found';
import AddTeamPage from '../pages/org/add-team';
import InvitePage from '../pages/org/invite';
import { useAccessToken, usePowers } from '../session/queries';
import { PageFor } from './page-registry';
import { RequestBridge, ScrollToTop } from './RequestBridge';
import { RequireAuth } from './RequireAuth';

/** Public routes of spec section 2 that later issues fill in. */
const PUBLIC_COMING_SOON = ['screen', 'screen2'];

/**
 * Routes built from the server's menus: pages (shown or hidden) render their screen, directories
 * redirect to their first page. Pages without a screen yet render coming-soon (page-registry).
 */
export function permissionRoutes(menus: MenuEntry[]): ReactElement[] {
  return flattenMenus(menus)
    .filter((entry) => entry.url !== '/home' && entry.url.startsWith('/'))
    .map((entry) =>
      entry.type === MenuType.Directory ? (
        entry.redirect ? (
          <Route key={entry.id} path={entry.url} element={<Navigate to={entry.redirect} replace />} />
        ) : null
      ) : (
        <Route
          key={entry.id}
          path={entry.url}
          element={<PageFor name={entry.name} titleKey={entry.title} />}
        />
      ),
    )
    .filter((route): route is ReactElement => route !== null);
}

/**
 * Inside the layout, an unknown path waits for the menus before it is called unknown. Its own
 * view of the powers can be one render ahead of the route table, so a path the menus know is
 * given that render to catch up instead of being sent to /404.
 */
function UnknownPath() {
  const token = useAccessToken();
  const powers = usePowers();
  const { pathname } = useLocation();
  const known = flattenMenus(powers.data?.menus ?? []).some((entry) => entry.url === pathname);
  if ((token && powers.isPending) || known) return <Spin />;
  return <Navigate to="/404" replace />;
}

export function AppRoutes() {
  // The route table follows the cached powers: it is rebuilt after login and a company
  // switch, and emptied when logout drops the session queries.
  const menus = usePowers().data?.menus ?? [];
  return (
    <>
      <RequestBridge />
      <ScrollToTop />
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route path="/404" element={<NotFoundPage />} />
        <Route path="/invite" element={<InvitePage />} />
        <Route path="/addTeam" element={<AddTeamPage />} />
        <Route path="/register" element={<RegisterPage />} />
        <Route path="/forget" element={<ForgetPage />} />
        <Route path="/updatePassword" element={<UpdatePasswordPage />} />
        <Route
          path="/qrConfirm"
          element={
            <RequireAuth>
              <QrConfirmPage />
            </RequireAuth>
          }
        />
        {PUBLIC_COMING_SOON.map((name) => (
          <Route
            key={name}
            path={`/${name}`}
            element={<PublicComingSoonPage titleKey={`common.publicPage.${name}`} />}
          />
        ))}
        <Route path="/" element={<Navigate to="/home" replace />} />
        <Route
          element={
            <RequireAuth>
              <AppLayout />
            </RequireAuth>
          }
        >
          <Route path="/home" element={<HomePage />} />
          {permissionRoutes(menus)}
          <Route path="*" element={<UnknownPath />} />
        </Route>
      </Routes>
    </>
  );
}

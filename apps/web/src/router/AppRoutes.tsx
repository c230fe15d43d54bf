import { type MenuEntry, MenuType } from '@coldchain/contract';
import type { ReactElement } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { flattenMenus } from '../layout/menu-model';
import LoginPage from '../pages/login';
import { useAccessToken, usePowers, usePrefetchUserInfo } from '../session/queries';
import { Loading, lazyScreen, lazyTopScreen, ScreenLoading } from './lazy-screen';
import { PageFor } from './page-registry';
import { RequestBridge, ScrollToTop } from './RequestBridge';
import { ShellNotices } from './ShellNotices';

/*
 * Only the login page is in the entry bundle, drawn without antd: it is the first screen of most
 * visits. Every other screen, the layout included, loads on first visit (lazy-screen.tsx).
 */
const loadHome = () => import('../pages/home');
const HomePage = lazyScreen(loadHome);

/** The route guard and the layout, one chunk; /home's page starts loading beside it, not after it. */
const ConsoleScreen = lazyTopScreen(() => {
  if (window.location.pathname === '/home') void loadHome();
  return Promise.all([import('./RequireAuth'), import('../layout/AppLayout')]).then(([guard, layout]) => ({
    default: function ConsoleScreen() {
      return (
        <guard.RequireAuth>
          <layout.AppLayout />
        </guard.RequireAuth>
      );
    },
  }));
});
const QrConfirmScreen = lazyTopScreen(() =>
  Promise.all([import('./RequireAuth'), import('../pages/account/QrConfirmPage')]).then(([guard, page]) => ({
    default: function QrConfirmScreen() {
      return (
        <guard.RequireAuth>
          <page.default />
        </guard.RequireAuth>
      );
    },
  })),
);
const NotFoundPage = lazyTopScreen(() => import('../pages/not-found'));
const InvitePage = lazyTopScreen(() => import('../pages/org/invite'));
const AddTeamPage = lazyTopScreen(() => import('../pages/org/add-team'));
const RegisterPage = lazyTopScreen(() => import('../pages/account/RegisterPage'));
const ForgetPage = lazyTopScreen(() => import('../pages/account/ForgetPage'));
const UpdatePasswordPage = lazyTopScreen(() => import('../pages/account/UpdatePasswordPage'));
/** The data screens of spec section 2 (pages/screen): outside the layout, each with its own login check. */
const OverviewScreen = lazyTopScreen(() =>
  import('../pages/screen').then((m) => ({ default: m.OverviewScreen })),
);
const SensorWallScreen = lazyTopScreen(() =>
  import('../pages/screen').then((m) => ({ default: m.SensorWallScreen })),
);
const DATA_SCREENS = ['screen', 'screen2'];
/** A receiver's receipt page, opened from a signed link without login (pages/logistics/receipt). */
const ReceiptScreen = lazyTopScreen(() => import('../pages/logistics/receipt'));

/**
 * Screens outside the layout, which do not show the user: a token there may be a renewal token
 * (/updatePassword) or a phone's (/qrConfirm), so the user is not asked for on their behalf.
 */
const SCREENS_WITHOUT_USER = new Set([
  '/login',
  '/404',
  '/invite',
  '/addTeam',
  '/register',
  '/forget',
  '/updatePassword',
  '/qrConfirm',
  ...DATA_SCREENS.map((name) => `/${name}`),
]);

/**
 * Routes built from the server's menus: pages (shown or hidden) render their screen, directories
 * redirect to their first page. A name without a screen renders "not found" (page-registry).
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
        <Route key={entry.id} path={entry.url} element={<PageFor name={entry.name} />} />
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
  if ((token && powers.isPending) || known) return <ScreenLoading />;
  return <Navigate to="/404" replace />;
}

export function AppRoutes() {
  // The route table follows the cached powers: it is rebuilt after login and a company
  // switch, and emptied when logout drops the session queries.
  const menus = usePowers().data?.menus ?? [];
  usePrefetchUserInfo(!SCREENS_WITHOUT_USER.has(useLocation().pathname));
  return (
    <>
      <RequestBridge />
      <ScrollToTop />
      <ShellNotices />
      {/* Public screens and the layout wait here for their chunk; pages inside the layout wait
          inside it, so the sidebar stays while one loads. */}
      <Loading>
        <Routes>
          <Route path="/login" element={<LoginPage />} />
          <Route path="/404" element={<NotFoundPage />} />
          <Route path="/invite" element={<InvitePage />} />
          <Route path="/addTeam" element={<AddTeamPage />} />
          <Route path="/register" element={<RegisterPage />} />
          <Route path="/forget" element={<ForgetPage />} />
          <Route path="/updatePassword" element={<UpdatePasswordPage />} />
          <Route path="/qrConfirm" element={<QrConfirmScreen />} />
          <Route path="/screen" element={<OverviewScreen />} />
          <Route path="/screen2" element={<SensorWallScreen />} />
          <Route path="/receipt/:token" element={<ReceiptScreen />} />
          <Route path="/" element={<Navigate to="/home" replace />} />
          <Route element={<ConsoleScreen />}>
            <Route
              path="/home"
              element={
                <Loading>
                  <HomePage />
                </Loading>
              }
            />
            {permissionRoutes(menus)}
            <Route path="*" element={<UnknownPath />} />
          </Route>
        </Routes>
      </Loading>
    </>
  );
}

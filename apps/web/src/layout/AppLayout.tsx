import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { MenuType } from '@coldchain/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Breadcrumb, Layout } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { QueryKey, usePowers } from '../session/queries';
import { readSidebarOpen, writeSidebarOpen } from '../session/storage';
import { FeedbackDialog } from './FeedbackDialog';
import {
  CompanySelect,
  DataScreenShortcut,
  FeedbackButton,
  FullscreenToggle,
  HelpLink,
  MoreTools,
  NoticeBell,
} from './HeaderTools';
import { LiveAlarms } from './LiveAlarms';
import { breadcrumbTrail } from './menu-model';
import { Sidebar } from './Sidebar';
import { layoutSettings } from './settings';
import { PERSONAL_CENTER, UserMenu } from './UserMenu';
import { useDeviceType } from './useDeviceType';
import './layout.css';

/**
 * The console frame of spec section 2: sidebar, top bar and the page. On desktop the sidebar
 * collapses and remembers it (sidebarStatus); on mobile it is an overlay, closed by default.
 */
export function AppLayout() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const queryClient = useQueryClient();
  const menus = usePowers().data?.menus ?? [];
  const device = useDeviceType();
  const mobile = device === 'mobile';
  const [desktopOpen, setDesktopOpen] = useState(readSidebarOpen);
  const [mobileOpen, setMobileOpen] = useState(false);
  const [feedbackOpen, setFeedbackOpen] = useState(false);
  const [pageNonce, setPageNonce] = useState(0);

  // Mobile: a route change or a switch of device type closes the overlay.
  // biome-ignore lint/correctness/useExhaustiveDependencies: pathname and device are the triggers
  useEffect(() => setMobileOpen(false), [pathname, device]);

  // Spec section 7: the unread count is refreshed after going to the personal centre.
  useEffect(() => {
    if (pathname === PERSONAL_CENTER) void queryClient.invalidateQueries({ queryKey: QueryKey.notices });
  }, [pathname, queryClient]);

  const toggleSidebar = () => {
    if (mobile) {
      setMobileOpen((open) => !open);
      return;
    }
    setDesktopOpen((open) => {
      writeSidebarOpen(!open);
      return !open;
    });
  };

  const openNotices = () => {
    if (pathname === PERSONAL_CENTER) {
      // Already there: reload the page (remount) and its count rather than the whole app.
      setPageNonce((n) => n + 1);
      void queryClient.invalidateQueries({ queryKey: QueryKey.notices });
    } else {
      navigate(PERSONAL_CENTER);
    }
  };

  const trail = breadcrumbTrail(menus, pathname);
  const crumbs = [
    ...(trail[0]?.url === '/home' ? [] : [{ title: <Link to="/home">{t('menu.home')}</Link> }]),
    ...trail.map((entry, index) => ({
      title:
        index < trail.length - 1 && entry.type !== MenuType.Directory ? (
          <Link to={entry.url}>{t(entry.title)}</Link>
        ) : (
          t(entry.title)
        ),
    })),
  ];
  const sidebarShown = mobile ? mobileOpen : true;

  return (
    <Layout style={{ minHeight: '100vh' }} className={mobile ? 'cc-mobile' : 'cc-desktop'}>
      {sidebarShown && <Sidebar menus={menus} collapsed={mobile ? false : !desktopOpen} mobile={mobile} />}
      {mobile && mobileOpen && (
        <div
          className="cc-sidebar-mask"
          data-testid="sidebar-mask"
          onClick={() => setMobileOpen(false)}
          aria-hidden
        />
      )}
      <Layout>
        <Layout.Header className={`cc-header${layoutSettings.fixedHeader ? ' cc-header-fixed' : ''}`}>
          <button
            type="button"
            className="cc-header-button"
            data-testid="sidebar-toggle"
            aria-label={t('layout.toggleSidebar')}
            onClick={toggleSidebar}
          >
            {(mobile ? mobileOpen : desktopOpen) ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
          </button>
          <Breadcrumb data-testid="breadcrumb" className="cc-breadcrumb" items={crumbs} />
          <div className="cc-header-tools">
            {!mobile && <FullscreenToggle />}
            <CompanySelect />
            {!mobile && <FeedbackButton onOpen={() => setFeedbackOpen(true)} />}
            <DataScreenShortcut />
            <NoticeBell onOpen={openNotices} />
            {!mobile && <HelpLink />}
            {mobile && <MoreTools onFeedback={() => setFeedbackOpen(true)} />}
            <UserMenu />
          </div>
        </Layout.Header>
        <Layout.Content className="cc-content">
          <Outlet key={pageNonce} />
        </Layout.Content>
      </Layout>
      <FeedbackDialog open={feedbackOpen} onClose={() => setFeedbackOpen(false)} />
      <LiveAlarms />
    </Layout>
  );
}

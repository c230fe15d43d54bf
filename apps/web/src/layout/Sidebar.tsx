import { Limits, type MenuEntry, MenuType } from '@coldchain/contract';
import { Layout, Menu, type MenuProps, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useClientConfig } from '../session/queries';
import { MenuIcon } from './menu-icons';
import { isShownInMenu, openKeysFor, selectedMenuKey } from './menu-model';
import { layoutSettings } from './settings';

type MenuItem = Required<MenuProps>['items'][number];

function toItems(entries: MenuEntry[], t: (key: string) => string): MenuItem[] {
  return entries.filter(isShownInMenu).map((entry) => {
    const base = { key: entry.url, icon: <MenuIcon name={entry.icon} />, label: t(entry.title) };
    if (entry.type !== MenuType.Directory) return base;
    return { ...base, children: toItems(entry.children ?? [], t) };
  });
}

interface SidebarProps {
  menus: MenuEntry[];
  collapsed: boolean;
  mobile: boolean;
}

export function Sidebar({ menus, collapsed, mobile }: SidebarProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { data: config } = useClientConfig();
  const selected = selectedMenuKey(menus, pathname);
  const [openKeys, setOpenKeys] = useState<string[]>(() => openKeysFor(menus, selected));
  const items = useMemo(() => toItems(menus, t), [menus, t]);

  // Opening a page from elsewhere (a link, a reload) unfolds the directory it lives in.
  useEffect(() => {
    const needed = openKeysFor(menus, selected);
    setOpenKeys((current) => Array.from(new Set([...current, ...needed])));
  }, [menus, selected]);

  return (
    <Layout.Sider
      data-testid="sidebar"
      width={Limits.sidebarWidthPx}
      collapsedWidth={layoutSettings.collapsedWidthPx}
      collapsed={collapsed}
      trigger={null}
      theme="dark"
      style={
        mobile
          ? { position: 'fixed', insetBlock: 0, insetInlineStart: 0, zIndex: 1001, overflow: 'auto' }
          : // Stays in view as a long page scrolls, with a scroll of its own when the menu is
            // taller than the window (issue 20: it scrolled away and left an empty dark column).
            {
              position: 'sticky',
              insetBlockStart: 0,
              alignSelf: 'flex-start',
              height: '100vh',
              overflow: 'auto',
            }
      }
    >
      <div style={{ display: 'flex', flexDirection: 'column', minHeight: '100%' }}>
        {layoutSettings.sidebarLogo && (
          <div style={{ display: 'flex', alignItems: 'center', gap: 8, padding: '16px 20px', color: '#fff' }}>
            <img src="/logo.svg" alt="" width={24} height={24} />
            {!collapsed && (
              <span style={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
                {config?.productName || t('common.productName')}
              </span>
            )}
          </div>
        )}
        <Menu
          theme="dark"
          mode="inline"
          items={items}
          selectedKeys={[selected]}
          {...(collapsed ? {} : { openKeys, onOpenChange: setOpenKeys })}
          onClick={({ key }) => navigate(key)}
          style={{ flex: 1, borderInlineEnd: 0 }}
        />
        {!collapsed && config?.contact && (
          <div data-testid="sidebar-contact" style={{ padding: '12px 20px', fontSize: 12 }}>
            <Typography.Text style={{ color: 'rgba(255,255,255,0.85)', display: 'block' }} strong>
              {t('layout.contact')}
            </Typography.Text>
            {(['phone', 'email', 'address'] as const)
              .filter((field) => config.contact[field])
              .map((field) => (
                <div key={field} style={{ color: 'rgba(255,255,255,0.65)', wordBreak: 'break-all' }}>
                  {t('layout.labelValue', { label: t(`layout.${field}`), value: config.contact[field] })}
                </div>
              ))}
          </div>
        )}
      </div>
    </Layout.Sider>
  );
}

import { DownOutlined, UserOutlined } from '@ant-design/icons';
import { cutUserName } from '@coldchain/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Avatar, Dropdown, type MenuProps } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { changeLanguage } from '../i18n';
import { loginPathFor } from '../router/RequireAuth';
import { logOut } from '../session/actions';
import { useCompanies, useCompanyId, useUserInfo } from '../session/queries';

/** The company administrator's support-access window (pages/operator/support-access), loaded on use. */
const SupportAccessModal = lazy(() =>
  import('../pages/operator/support-access/SupportAccessModal').then((m) => ({
    default: m.SupportAccessModal,
  })),
);

export const PERSONAL_CENTER = '/user/personalCenter';

export function UserMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const { data: user } = useUserInfo();
  const companyId = useCompanyId();
  const { data: companies } = useCompanies();
  const company = companies?.find((c) => c.id === companyId) ?? companies?.find((c) => c.current);
  const [supportOpen, setSupportOpen] = useState(false);

  const doLogout = async () => {
    const target = loginPathFor(location.pathname + location.search);
    try {
      await logOut(queryClient);
    } catch {
      // The session is cleared locally even when the server call fails.
    }
    navigate(target, { replace: true });
  };

  const items: MenuProps['items'] = [
    {
      key: 'home',
      label: <span data-testid="menu-home">{t('layout.home')}</span>,
      onClick: () => navigate('/home'),
    },
    {
      key: 'personal',
      label: <span data-testid="menu-personal">{t('layout.personalCenter')}</span>,
      onClick: () => navigate(PERSONAL_CENTER),
    },
    {
      key: 'password',
      label: <span data-testid="menu-password">{t('layout.changePassword')}</span>,
      onClick: () => navigate(`${PERSONAL_CENTER}?panel=password`),
    },
    ...(company?.isAdmin
      ? [
          {
            key: 'support',
            label: <span data-testid="menu-support-access">{t('operator.access.menu')}</span>,
            onClick: () => setSupportOpen(true),
          },
        ]
      : []),
    { type: 'divider' },
    {
      key: 'language',
      type: 'group',
      label: t('common.language'),
      children: [
        {
          key: 'lang-en',
          label: <span data-testid="menu-language-en">{t('common.english')}</span>,
          onClick: () => void changeLanguage('en'),
        },
        {
          key: 'lang-zh',
          label: <span data-testid="menu-language-zh">{t('common.chinese')}</span>,
          onClick: () => void changeLanguage('zh-CN'),
        },
      ],
    },
    { type: 'divider' },
    {
      key: 'logout',
      label: <span data-testid="menu-logout">{t('layout.logout')}</span>,
      onClick: () => void doLogout(),
    },
  ];

  return (
    <>
      <Dropdown menu={{ items }} trigger={['click']} placement="bottomRight">
        <button
          type="button"
          className="cc-header-button"
          data-testid="user-menu"
          title={user?.relName}
          aria-label={t('layout.userMenu', { name: user?.relName ?? '' })}
        >
          <Avatar size="small" src={user?.headImg || undefined} icon={<UserOutlined />} alt="" />
          <span className="cc-user-name">{cutUserName(user?.relName ?? '')}</span>
          <DownOutlined style={{ fontSize: 10 }} />
        </button>
      </Dropdown>
      {supportOpen && (
        <Suspense fallback={null}>
          <SupportAccessModal onClose={() => setSupportOpen(false)} />
        </Suspense>
      )}
    </>
  );
}

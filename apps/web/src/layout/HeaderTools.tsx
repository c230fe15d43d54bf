import {
  BellOutlined,
  DesktopOutlined,
  EllipsisOutlined,
  FullscreenExitOutlined,
  FullscreenOutlined,
  MessageOutlined,
  QuestionCircleOutlined,
} from '@ant-design/icons';
import { formatUnreadCount, Limits } from '@coldchain/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Badge, Dropdown, type MenuProps, Select, Tooltip } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { fetchEncryptionUser } from '../api/calls';
import { useNotify } from '../router/notify';
import { switchCompany } from '../session/actions';
import {
  useClientConfig,
  useCompanies,
  useCompanyId,
  usePowers,
  useUnreadNotices,
  useUserInfo,
} from '../session/queries';
import { LOOP_VALUE, readCompanyLoop, useCompanyLoop, writeCompanyLoop } from './company-loop';

export const DATA_VIEW_TAG = 'data:view';
/** The supplier's service behind the dashboards (`/api/datav/screenOverview` is gated by it). */
export const DATA_SCREEN_SERVICE = 'service:dataScreen';

/** Spec section 2: warn when the browser has no Fullscreen API instead of failing silently. */
function useFullscreen() {
  const { t } = useTranslation();
  const notify = useNotify();
  const [active, setActive] = useState(false);
  useEffect(() => {
    const onChange = () => setActive(!!document.fullscreenElement);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  const toggle = () => {
    const supported =
      document.fullscreenEnabled && typeof document.documentElement.requestFullscreen === 'function';
    if (!supported) {
      notify({ type: 'warning', content: t('layout.fullscreenUnsupported'), duration: 5 });
      return;
    }
    if (document.fullscreenElement) void document.exitFullscreen();
    else void document.documentElement.requestFullscreen();
  };
  return { active, toggle };
}

export function FullscreenToggle() {
  const { t } = useTranslation();
  const { active, toggle } = useFullscreen();
  return (
    <Tooltip title={t('layout.fullscreen')}>
      <button
        type="button"
        className="cc-header-button"
        data-testid="fullscreen-toggle"
        aria-label={t('layout.fullscreen')}
        onClick={toggle}
      >
        {active ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
      </button>
    </Tooltip>
  );
}

/**
 * Below 992 px the header has room for the company, the data screen, the bell and the user menu
 * only (issue 20: at 390 px it was 509 px wide); full screen, feedback and help fold into this menu.
 */
export function MoreTools({ onFeedback }: { onFeedback: () => void }) {
  const { t } = useTranslation();
  const { toggle } = useFullscreen();
  const { data: config } = useClientConfig();
  const items: MenuProps['items'] = [
    {
      key: 'fullscreen',
      icon: <FullscreenOutlined />,
      label: <span data-testid="more-fullscreen">{t('layout.fullscreen')}</span>,
      onClick: toggle,
    },
    {
      key: 'feedback',
      icon: <MessageOutlined />,
      label: <span data-testid="more-feedback">{t('layout.feedback')}</span>,
      onClick: onFeedback,
    },
    ...(config?.helpUrl
      ? [
          {
            key: 'help',
            icon: <QuestionCircleOutlined />,
            label: (
              <a href={config.helpUrl} target="_blank" rel="noopener noreferrer" data-testid="more-help">
                {t('layout.help')}
              </a>
            ),
          },
        ]
      : []),
  ];
  return (
    <Dropdown menu={{ items }} trigger={['click']} placement="bottomRight">
      <button
        type="button"
        className="cc-header-button"
        data-testid="more-tools"
        aria-label={t('layout.more')}
      >
        <EllipsisOutlined />
      </button>
    </Dropdown>
  );
}

export function CompanySelect() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data: companies } = useCompanies();
  const companyId = useCompanyId();
  const [switching, setSwitching] = useState(false);
  const [looping, setLooping] = useState(readCompanyLoop);
  // A loop over one company is no loop: the entry is hidden and a remembered loop rests.
  const canLoop = (companies?.length ?? 0) > 1;

  const change = async (id: string) => {
    setSwitching(true);
    try {
      await switchCompany(queryClient, id);
    } catch {
      // The request wrapper showed the error (or went to /updatePassword on 301).
    } finally {
      setSwitching(false);
    }
  };
  useCompanyLoop(looping && canLoop, companies, change);

  const select = (value: string) => {
    const loop = value === LOOP_VALUE;
    setLooping(loop);
    writeCompanyLoop(loop);
    if (!loop) void change(value);
  };
  const current = companies?.find((c) => c.id === companyId);
  const options = (companies ?? []).map((c) => ({ value: c.id, label: c.name }));
  return (
    <Select
      data-testid="company-select"
      aria-label={t('layout.company')}
      className="cc-company-select"
      loading={switching}
      value={looping && canLoop ? LOOP_VALUE : current ? companyId : undefined}
      options={
        canLoop
          ? [
              {
                value: LOOP_VALUE,
                label: t('layout.companyLoop', { minutes: Limits.companyLoopSwitchMs / 60_000 }),
              },
              ...options,
            ]
          : options
      }
      // While looping the box still names the company on screen.
      labelRender={({ value, label }) =>
        value === LOOP_VALUE ? t('layout.companyLooping', { company: current?.name ?? '' }) : label
      }
      onChange={select}
      popupMatchSelectWidth={false}
    />
  );
}

export function DataScreenShortcut() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: powers } = usePowers();
  const { data: user } = useUserInfo();
  // The right to see it, and the supplier's data screen service for the company in scope.
  if (!powers?.authTags.includes(DATA_VIEW_TAG) || !powers.serviceAuthTags.includes(DATA_SCREEN_SERVICE))
    return null;

  const open = async () => {
    try {
      const { ticket } = await fetchEncryptionUser();
      const base = user?.dataViewPath || '/screen';
      const target = `${base}${base.includes('?') ? '&' : '?'}ticket=${encodeURIComponent(ticket)}`;
      if (/^https?:\/\//.test(base)) window.location.assign(target);
      else navigate(target);
    } catch {
      // Shown by the request wrapper.
    }
  };
  return (
    <Tooltip title={t('layout.dataScreen')}>
      <button
        type="button"
        className="cc-header-button"
        data-testid="data-screen"
        aria-label={t('layout.dataScreen')}
        onClick={() => void open()}
      >
        <DesktopOutlined />
      </button>
    </Tooltip>
  );
}

export function NoticeBell({ onOpen }: { onOpen: () => void }) {
  const { t } = useTranslation();
  const { data } = useUnreadNotices();
  const count = data?.count ?? 0;
  return (
    <Tooltip title={t('layout.notices')}>
      <button
        type="button"
        className="cc-header-button"
        data-testid="notice-bell"
        aria-label={count > 0 ? t('layout.noticesUnread', { count }) : t('layout.notices')}
        onClick={onOpen}
      >
        <Badge count={count > 0 ? formatUnreadCount(count) : 0} size="small">
          <BellOutlined style={{ fontSize: 16 }} />
        </Badge>
      </button>
    </Tooltip>
  );
}

export function FeedbackButton({ onOpen }: { onOpen: () => void }) {
  const { t } = useTranslation();
  return (
    <Tooltip title={t('layout.feedback')}>
      <button
        type="button"
        className="cc-header-button"
        data-testid="feedback-open"
        aria-label={t('layout.feedback')}
        onClick={onOpen}
      >
        <MessageOutlined />
      </button>
    </Tooltip>
  );
}

export function HelpLink() {
  const { t } = useTranslation();
  const { data: config } = useClientConfig();
  return (
    <Tooltip title={t('layout.help')}>
      <a
        className="cc-header-button"
        data-testid="help-link"
        href={config?.helpUrl || undefined}
        target="_blank"
        rel="noopener noreferrer"
        aria-label={t('layout.help')}
      >
        <QuestionCircleOutlined />
      </a>
    </Tooltip>
  );
}

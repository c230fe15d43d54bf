import {
  BellOutlined,
  DesktopOutlined,
  FullscreenExitOutlined,
  FullscreenOutlined,
  MessageOutlined,
  QuestionCircleOutlined,
} from '@ant-design/icons';
import { formatUnreadCount, Limits } from '@coldchain/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Badge, Select, Tooltip } from 'antd';
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

/** Spec section 2: warn when the browser has no Fullscreen API instead of failing silently. */
export function FullscreenToggle() {
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
  return (
    <Tooltip title={t('layout.fullscreen')}>
      <button type="button" className="cc-header-button" data-testid="fullscreen-toggle" onClick={toggle}>
        {active ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
      </button>
    </Tooltip>
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
      style={{ minWidth: 160, maxWidth: 260 }}
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
  if (!powers?.authTags.includes(DATA_VIEW_TAG)) return null;

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
      <button type="button" className="cc-header-button" data-testid="notice-bell" onClick={onOpen}>
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
      <button type="button" className="cc-header-button" data-testid="feedback-open" onClick={onOpen}>
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

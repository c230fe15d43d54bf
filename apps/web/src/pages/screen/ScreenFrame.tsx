import type { Locale } from '@coldchain/contract';
import { useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import type { LiveStatus } from '../../api/live-socket';
import { changeLanguage } from '../../i18n';
import { startSession, switchCompany } from '../../session/actions';
import { useAccessToken, useCompanyId } from '../../session/queries';
import { redeemTicket, useScreenCompanies } from './screen-data';
import './screen.css';

export type ScreenLayout = 'overview' | 'wall';

/**
 * A data screen needs a login: without one it goes to /login and comes back (an address-code link
 * `/login?addressCode=...&redirect=/screen` logs a wall screen in by itself). The one-time `ticket`
 * the header's shortcut adds is redeemed for a session when this browser has none (the link was
 * opened elsewhere); with a session it is simply dropped. Either way it leaves the address, so it
 * is not kept in the history.
 */
export function ScreenGuard({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const token = useAccessToken();
  const queryClient = useQueryClient();
  const location = useLocation();
  const navigate = useNavigate();
  const params = new URLSearchParams(location.search);
  const ticket = params.get('ticket');
  params.delete('ticket');
  const rest = params.toString();
  const here = `${location.pathname}${rest ? `?${rest}` : ''}`;
  const redeeming = !token && ticket !== null;
  const tried = useRef(false);
  useEffect(() => {
    if (token && ticket !== null) navigate(here, { replace: true });
  }, [token, ticket, here, navigate]);
  useEffect(() => {
    if (!redeeming || !ticket || tried.current) return;
    tried.current = true;
    redeemTicket(ticket)
      .then((answer) => startSession(queryClient, answer.accessToken))
      .then(
        () => navigate(here, { replace: true }),
        // The wrapper has shown why; the login page brings the person back here.
        () => navigate(`/login?redirect=${encodeURIComponent(here)}`, { replace: true }),
      );
  }, [redeeming, ticket, queryClient, here, navigate]);
  if (redeeming) {
    return (
      <main className="cc-dash" data-testid="screen-ticket-login">
        <PanelState kind="loading">{t('screen.redeeming')}</PanelState>
      </main>
    );
  }
  if (!token) return <Navigate to={`/login?redirect=${encodeURIComponent(here)}`} replace />;
  return children;
}

/** The wall clock, to the second, with the weekday in the language in use. */
export function Clock() {
  const { i18n } = useTranslation();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, []);
  const weekdays = useMemo(
    () => new Intl.DateTimeFormat(i18n.language, { weekday: 'long' }),
    [i18n.language],
  );
  const weekday = weekdays.format(now);
  return (
    <time className="cc-dash-clock" data-testid="screen-clock" dateTime={new Date(now).toISOString()}>
      {dayjs(now).format('YYYY-MM-DD HH:mm:ss')}
      <small>{weekday}</small>
    </time>
  );
}

export function LiveBadge({ status }: { status: LiveStatus }) {
  const { t } = useTranslation();
  return (
    <span className="cc-dash-live" data-testid="screen-live" data-state={status} role="status">
      {t(`screen.live.${status}`)}
    </span>
  );
}

/** The company in scope; a person in several companies switches here, as in the console's header. */
function CompanyChoice({ name }: { name: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  const { data: companies } = useScreenCompanies();
  if (!companies || companies.length < 2) {
    return (
      <span className="cc-dash-company" data-testid="screen-company">
        {name}
      </span>
    );
  }
  return (
    <select
      className="cc-dash-select"
      data-testid="screen-company"
      aria-label={t('layout.company')}
      value={companyId ?? ''}
      onChange={(event) => void switchCompany(queryClient, event.target.value).catch(() => undefined)}
    >
      {companies.map((company) => (
        <option key={company.id} value={company.id}>
          {company.name}
        </option>
      ))}
    </select>
  );
}

function requestFullscreen() {
  if (document.fullscreenEnabled) void document.documentElement.requestFullscreen?.().catch(() => undefined);
}

export function ScreenHeader({
  layout,
  companyName,
  status,
}: {
  layout: ScreenLayout;
  companyName: string;
  status: LiveStatus;
}) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const other = layout === 'overview' ? 'wall' : 'overview';
  const otherPath = layout === 'overview' ? '/screen2' : '/screen';
  const next: Locale = i18n.language === 'zh-CN' ? 'en' : 'zh-CN';
  useEffect(() => {
    document.title = `${t(`screen.title.${layout}`)} · ${companyName}`;
  }, [t, layout, companyName]);
  return (
    <header className="cc-dash-header">
      <h1 data-testid="page-title">{t(`screen.title.${layout}`)}</h1>
      <CompanyChoice name={companyName} />
      <span className="cc-dash-spacer" />
      <Clock />
      <LiveBadge status={status} />
      <Link className="cc-dash-button" to={`${otherPath}${location.search}`} data-testid="screen-switch">
        {t(`screen.otherScreen.${other}`)}
      </Link>
      <button
        type="button"
        className="cc-dash-button"
        aria-label={t('screen.languageLabel')}
        data-testid="screen-language"
        onClick={() => void changeLanguage(next)}
      >
        {t('screen.language')}
      </button>
      {document.fullscreenEnabled ? (
        <button type="button" className="cc-dash-button" onClick={requestFullscreen}>
          {t('screen.fullscreen')}
        </button>
      ) : null}
    </header>
  );
}

/** Loading, failure and empty states of a panel, in the screen's own style. */
export function PanelState({ kind, children }: { kind: 'loading' | 'empty' | 'error'; children: ReactNode }) {
  return (
    <p className="cc-dash-state" data-kind={kind} data-testid={`screen-state-${kind}`}>
      {children}
    </p>
  );
}

/** What the footer says about the figures: when they were read, or that reading failed. */
export function Freshness({ updatedAt, failed }: { updatedAt: number | null; failed: boolean }) {
  const { t } = useTranslation();
  if (updatedAt === null) return null;
  const time = dayjs(updatedAt).format('HH:mm:ss');
  return (
    <span data-testid="screen-updated" data-failed={failed}>
      {failed ? t('screen.stale', { time }) : t('screen.updatedAt', { time })}
    </span>
  );
}

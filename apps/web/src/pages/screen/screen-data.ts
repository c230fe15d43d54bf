import {
  type LoginResult,
  MsgCode,
  type NoticeView,
  type Page,
  type ScreenAlarm,
  type ScreenOverview,
  type ScreenOverviewRequest,
  type UserCompany,
} from '@coldchain/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { LiveStatus } from '../../api/live-socket';
import { RequestError, request } from '../../api/request';
import { useAccessToken, useCompanyId } from '../../session/queries';
import {
  addPushed,
  MIN_REFRESH_GAP_MS,
  mergeAlarms,
  openScreenSocket,
  PUSH_REFRESH_DELAY_MS,
  type Pushed,
  prunePushed,
  SAFETY_REFRESH_MS,
  screenAlarmOf,
} from './screen-live';

export const fetchScreenOverview = (body: ScreenOverviewRequest) =>
  request<ScreenOverview>('/api/datav/screenOverview', body);
/** The header shortcut's one-time ticket, exchanged for a session (ScreenGuard). */
export const redeemTicket = (ticket: string) => request<LoginResult>('/api/datav/redeemTicket', { ticket });
export const fetchScreenCompanies = () => request<UserCompany[]>('/api/datav/getUserCompanys');
export const fetchScreenNotices = () => request<Page<NoticeView>>('/api/index/getNotice', { pageSize: 5 });

/** Notices change rarely and are pushed: the ticker asks every 10 minutes besides. */
const NOTICE_REFRESH_MS = 10 * 60_000;

/** An expired login is not retried (the request wrapper sent the screen to /login); the rest is. */
function retryUnlessLoggedOut(failures: number, error: unknown): boolean {
  if (error instanceof RequestError && error.msgCode === MsgCode.LoginExpired) return false;
  return failures < 2;
}
const retryDelay = (attempt: number) => Math.min(30_000, 2_000 * 2 ** attempt);

export interface ScreenState {
  data: ScreenOverview | undefined;
  alarms: ScreenAlarm[];
  status: LiveStatus;
  failed: boolean;
  /** When the shown figures were read (the server's clock). */
  updatedAt: number | null;
}

/**
 * A data screen's figures and live alarms: the first paint, the live socket, a refresh after
 * pushes (coalesced, at most one per MIN_REFRESH_GAP_MS) and a slow safety refresh. Each read
 * also keeps the session alive: the server slides its expiry on every call (plugins/auth.ts).
 */
export function useScreen(body: { sensorIds?: string[]; trendDays: 7 | 30 }): ScreenState {
  const queryClient = useQueryClient();
  const token = useAccessToken();
  const companyId = useCompanyId();
  const requestedAt = useRef(0);
  const sensorKey = body.sensorIds?.join(',') ?? '';
  const queryKey = useMemo(
    () => ['screen', 'overview', companyId, body.trendDays, sensorKey],
    [companyId, body.trendDays, sensorKey],
  );
  const query = useQuery({
    queryKey,
    queryFn: () => {
      requestedAt.current = Date.now();
      return fetchScreenOverview({
        trendDays: body.trendDays,
        ...(sensorKey ? { sensorIds: sensorKey.split(',') } : {}),
      });
    },
    enabled: !!token,
    refetchInterval: SAFETY_REFRESH_MS,
    refetchIntervalInBackground: true,
    retry: retryUnlessLoggedOut,
    retryDelay,
    // Nothing else reads these: a company switch or a new choice of sensors drops the old ones.
    gcTime: 0,
  });

  const [pushed, setPushed] = useState<Pushed[]>([]);
  const [status, setStatus] = useState<LiveStatus>('connecting');

  // A fresh paint contains what was pushed before its request left.
  const generatedAt = query.data?.generatedAt;
  useEffect(() => {
    if (generatedAt === undefined) return;
    setPushed((list) => prunePushed(list, requestedAt.current));
  }, [generatedAt]);

  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const lastPushRefresh = useRef(0);
  const refreshSoon = useCallback(() => {
    if (timer.current !== null) return;
    const wait = Math.max(PUSH_REFRESH_DELAY_MS, lastPushRefresh.current + MIN_REFRESH_GAP_MS - Date.now());
    timer.current = setTimeout(() => {
      timer.current = null;
      lastPushRefresh.current = Date.now();
      void queryClient.invalidateQueries({ queryKey: ['screen', 'overview'] });
    }, wait);
  }, [queryClient]);
  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );

  // Pushes are for every company of the person: an alarm of a device this screen does not show
  // waits for the refresh, which knows whether it belongs here.
  const known = useRef<ReadonlySet<string>>(new Set());
  known.current = useMemo(() => new Set(query.data?.devices.map((d) => d.id) ?? []), [query.data]);

  useEffect(() => {
    if (!token) return;
    const socket = openScreenSocket({
      onAlarm: (push) => {
        if (known.current.has(String(push.deviceId))) {
          setPushed((list) => addPushed(list, screenAlarmOf(push), Date.now()));
        }
        refreshSoon();
      },
      onOtherPush: (type) => {
        if (type === 'notice') void queryClient.invalidateQueries({ queryKey: ['screen', 'notices'] });
        else refreshSoon();
      },
      onStatus: setStatus,
      onRebound: refreshSoon,
    });
    return () => socket.stop();
  }, [token, queryClient, refreshSoon]);

  const painted = query.data?.openAlarms;
  const alarms = useMemo(() => mergeAlarms(pushed, painted ?? []), [pushed, painted]);
  return {
    data: query.data,
    alarms,
    status,
    failed: query.isError,
    updatedAt: query.data?.generatedAt ?? null,
  };
}

export function useScreenNotices() {
  const companyId = useCompanyId();
  const token = useAccessToken();
  return useQuery({
    queryKey: ['screen', 'notices', companyId],
    queryFn: fetchScreenNotices,
    enabled: !!token,
    refetchInterval: NOTICE_REFRESH_MS,
    refetchIntervalInBackground: true,
    retry: retryUnlessLoggedOut,
    retryDelay,
    gcTime: 0,
  });
}

/** The companies the person may switch the screen to (read once a session; a switch reloads it). */
export function useScreenCompanies() {
  const token = useAccessToken();
  return useQuery({
    queryKey: ['screen', 'companies', token],
    queryFn: fetchScreenCompanies,
    enabled: !!token,
    staleTime: Number.POSITIVE_INFINITY,
    retry: retryUnlessLoggedOut,
    retryDelay,
  });
}

import { useQueryClient } from '@tanstack/react-query';
import { notification } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AlarmSound } from '../api/alarm-sound';
import { type LiveAlarm, LiveSocket, type LiveStatus, liveSocketUrl } from '../api/live-socket';
import { delayText } from '../pages/alarms/detail/AlarmOriginNotes';
import { alarmDetailUrl, contentIn } from '../pages/alarms/format';
import { AlarmQueryKey } from '../pages/alarms/queries';
import { formatTime } from '../pages/devices/format';
import { useAccessToken, useUserInfo } from '../session/queries';
import { getAccessToken } from '../session/storage';

/** Spec section 9: alarm notifications stay 5 seconds, at most 3 on screen. */
export const ALARM_NOTICE_SECONDS = 5;
export const ALARM_NOTICE_MAX = 3;

let noticeSeq = 0;

/**
 * Started by the layout: holds the live socket while a session exists, shows each pushed alarm
 * as a notification (oldest closed first beyond 3), plays the alarm sound when the user's
 * pcAlarmVoice flag is on, and refreshes the alarm lists.
 */
export function LiveAlarms() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const token = useAccessToken();
  const voice = useUserInfo().data?.pcAlarmVoice ?? false;
  const [api, holder] = notification.useNotification({
    maxCount: ALARM_NOTICE_MAX,
    duration: ALARM_NOTICE_SECONDS,
    placement: 'topRight',
  });
  const shown = useRef<string[]>([]);
  const sound = useRef<AlarmSound | null>(null);
  const [status, setStatus] = useState<LiveStatus>('closed');

  // The handler sees the latest language, flag and router through a ref; the socket lives on.
  const handle = useRef<(alarm: LiveAlarm) => void>(() => {});
  handle.current = (alarm) => {
    void queryClient.invalidateQueries({ queryKey: AlarmQueryKey.all });
    if (voice) {
      sound.current ??= new AlarmSound();
      sound.current.play();
    }
    const key = `live-alarm-${++noticeSeq}`;
    shown.current.push(key);
    while (shown.current.length > ALARM_NOTICE_MAX) {
      const oldest = shown.current.shift();
      if (oldest) api.destroy(oldest);
    }
    const type = t(`alarms.type.${alarm.alarmType}`, { defaultValue: String(alarm.alarmType) });
    const open = () => {
      api.destroy(key);
      if (alarm.alarmId) navigate(alarmDetailUrl(String(alarm.alarmId)));
    };
    api.open({
      key,
      type: 'warning',
      duration: ALARM_NOTICE_SECONDS,
      title: <span data-testid="alarm-notice-type">{type}</span>,
      description: (
        <div data-testid="alarm-notice" data-alarm-id={alarm.alarmId ?? ''}>
          <div data-testid="alarm-notice-device">
            {t('layout.labelValue', {
              label: t('alarms.notification.device'),
              value: `${alarm.deviceName} (${alarm.deviceSerial})`,
            })}
          </div>
          {alarm.channelName ? (
            <div data-testid="alarm-notice-channel">
              {t('layout.labelValue', { label: t('alarms.notification.channel'), value: alarm.channelName })}
            </div>
          ) : null}
          {alarm.lateBySeconds ? (
            // Not happening now: found in a logger's buffered data (issue 22 item 5).
            <div data-testid="alarm-notice-late">
              {t('alarms.notification.late', { delay: delayText(t, alarm.lateBySeconds) })}
            </div>
          ) : null}
          <div data-testid="alarm-notice-content">{contentIn(i18n.language, alarm.alarmContent)}</div>
          <div>{formatTime(alarm.alarmTime)}</div>
          {alarm.alarmId ? (
            <a
              href={alarmDetailUrl(String(alarm.alarmId))}
              data-testid="alarm-notice-link"
              onClick={(event) => {
                event.preventDefault();
                open();
              }}
            >
              {t('alarms.notification.open')}
            </a>
          ) : null}
        </div>
      ),
      onClose: () => {
        shown.current = shown.current.filter((k) => k !== key);
      },
    });
  };

  useEffect(() => {
    if (!token) return;
    const socket = new LiveSocket({
      url: liveSocketUrl(),
      token: getAccessToken,
      onAlarm: (alarm) => handle.current(alarm),
      onStatus: setStatus,
    });
    socket.start();
    return () => socket.stop();
  }, [token]);

  useEffect(() => () => sound.current?.stop(), []);

  return (
    <>
      {holder}
      {/* For people debugging and for the browser tests: whether pushes can arrive. */}
      <span hidden data-testid="live-socket" data-state={status} />
    </>
  );
}

import type { ScreenAlarm } from '@coldchain/contract';
import { useTranslation } from 'react-i18next';
import { formatTime, formatValue } from '../devices/format';
import { PanelState } from './ScreenFrame';

/** An alarm that arrived this recently is marked on screen (a short flash). */
const FRESH_MS = 10_000;

/**
 * The open alarms, newest first, live: pushes appear here the moment they arrive. The panel
 * shows as many as fit; the heading counts them all.
 */
export function AlarmPanel({
  alarms,
  total,
  loading,
  failed,
}: {
  alarms: ScreenAlarm[];
  total: number;
  loading: boolean;
  failed: boolean;
}) {
  const { t, i18n } = useTranslation();
  const cn = i18n.language === 'zh-CN';
  const now = Date.now();
  return (
    <section className="cc-dash-panel" aria-labelledby="dash-alarms" data-testid="screen-alarms">
      <h2 id="dash-alarms">
        {t('screen.alarms.title')}
        <small data-testid="screen-alarm-count">
          {t('screen.alarms.count', { count: Math.max(total, alarms.length) })}
        </small>
      </h2>
      {alarms.length === 0 ? (
        loading ? (
          <PanelState kind="loading">{t('screen.loading')}</PanelState>
        ) : failed ? (
          <PanelState kind="error">{t('screen.failed')}</PanelState>
        ) : (
          <PanelState kind="empty">{t('screen.alarms.empty')}</PanelState>
        )
      ) : (
        <ol className="cc-dash-alarms" aria-live="polite">
          {alarms.map((alarm) => (
            <li
              key={alarm.id}
              className="cc-dash-alarm"
              data-testid="screen-alarm"
              data-alarm-id={alarm.id}
              data-serial={alarm.deviceSerial}
              data-level={alarm.level}
              data-fresh={now - alarm.alarmTime < FRESH_MS}
            >
              <div className="cc-dash-alarm-top">
                <span>
                  {alarm.deviceName}
                  {alarm.channelName ? ` · ${alarm.channelName}` : ''}
                </span>
                <span>{t(`alarms.type.${alarm.alarmType}`, { defaultValue: alarm.alarmType })}</span>
              </div>
              <div className="cc-dash-alarm-text">{cn ? alarm.content.cn : alarm.content.en}</div>
              <div className="cc-dash-alarm-meta">
                {formatTime(alarm.alarmTime)}
                {alarm.departmentName ? ` · ${alarm.departmentName}` : ''}
                {` · ${alarm.deviceSerial}`}
                {alarm.lastValue !== null
                  ? ` · ${t('screen.alarms.value', { value: formatValue(alarm.lastValue) })}`
                  : ''}
                {alarm.count > 1 ? ` · ${t('screen.alarms.repeat', { count: alarm.count })}` : ''}
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

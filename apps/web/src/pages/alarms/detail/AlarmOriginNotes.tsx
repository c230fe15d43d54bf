import type { AlarmDetailView } from '@coldchain/contract';
import { Alert } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';

/** A delay as people say it, in the console's language: "1 h 5 min", "1小时5分钟". */
export function delayText(t: TFunction, seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h === 0 && m === 0) return t('alarms.detail.delay.seconds', { count: s });
  if (h === 0) return t('alarms.detail.delay.minutes', { count: m });
  if (m === 0) return t('alarms.detail.delay.hours', { count: h });
  // Joined by the language's own template: "1 h 5 min" in English, "1小时5分钟" in Chinese.
  return t('alarms.detail.delay.hoursAndMinutes', {
    hours: t('alarms.detail.delay.hours', { count: h }),
    minutes: t('alarms.detail.delay.minutes', { count: m }),
  });
}

/**
 * What an auditor must not misread: an alarm found in data that arrived late is not a live one,
 * and an alarm ended by a change to its rule did not recover (issue 22 items 3 and 5).
 */
export function AlarmOriginNotes({ alarm }: { alarm: AlarmDetailView }) {
  const { t } = useTranslation();
  const late = alarm.lateBySeconds ?? 0;
  return (
    <>
      {late > 0 && (
        <Alert
          type="warning"
          showIcon
          title={t('alarms.detail.late.title')}
          description={t('alarms.detail.late.text', { delay: delayText(t, late) })}
          style={{ marginBottom: 16 }}
          data-testid="alarm-late"
        />
      )}
      {alarm.endReason && (
        <Alert
          type="info"
          showIcon
          title={t(`alarms.detail.endReason.${alarm.endReason}`, { name: alarm.endedByName ?? '-' })}
          description={t('alarms.detail.endReason.notNormalized')}
          style={{ marginBottom: 16 }}
          data-testid="alarm-end-reason"
        />
      )}
    </>
  );
}

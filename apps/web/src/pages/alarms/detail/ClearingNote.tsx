import { type AlarmClearing, type AlarmDetailView, ResolveState } from '@coldchain/contract';
import { Alert } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../devices/format';

/**
 * Bounds are quoted as the engine compares them: rounding 7.75 to one decimal would name a value
 * that does not clear. Twelve digits only drop float noise such as 2.3000000000000003.
 */
function exact(value: number): string {
  return String(Number(value.toPrecision(12)));
}

type ValueClearing = Extract<AlarmClearing, { kind: 'value' }>;

function valueLines(t: TFunction, clearing: ValueClearing): string[] {
  const unit = clearing.unit ? ` ${clearing.unit}` : '';
  const { low, high } = clearing;
  const lines: string[] = [];
  if (low !== null && high !== null)
    lines.push(t('alarms.detail.clearing.between', { low: exact(low), high: exact(high), unit }));
  else if (high !== null) lines.push(t('alarms.detail.clearing.atOrBelow', { high: exact(high), unit }));
  else if (low !== null) lines.push(t('alarms.detail.clearing.atOrAbove', { low: exact(low), unit }));
  if (clearing.hysteresis > 0)
    lines.push(t('alarms.detail.clearing.narrowed', { hysteresis: exact(clearing.hysteresis), unit }));
  lines.push(
    clearing.latestValue === null
      ? t('alarms.detail.clearing.noReading')
      : t('alarms.detail.clearing.latest', {
          value: exact(clearing.latestValue),
          unit,
          time: formatTime(clearing.latestTs),
        }),
  );
  return lines;
}

function ClearingAlert({ lines }: { lines: string[] }) {
  const { t } = useTranslation();
  return (
    <Alert
      type="info"
      showIcon
      title={t('alarms.detail.clearing.title')}
      description={lines.map((line) => <div key={line}>{line}</div>)}
      style={{ marginBottom: 16 }}
      data-testid="alarm-clearing"
    />
  );
}

/**
 * Records a person has closed: resolved (the value may still be out, but someone answered for it)
 * or expired. Asking "why is this still open" of them contradicts the state beside it (issue 20).
 */
const CLOSED: number[] = [ResolveState.Resolved, ResolveState.Expired];

/** "Why it is still open": what ends this alarm. Nothing for an ended or a closed one. */
export function ClearingNote({ alarm }: { alarm: AlarmDetailView }) {
  const { t } = useTranslation();
  const { clearing } = alarm;
  if (alarm.endTime !== null || !clearing || CLOSED.includes(alarm.resolveState)) return null;
  const lines =
    clearing.kind === 'value' ? valueLines(t, clearing) : [t(`alarms.detail.clearing.${clearing.kind}`)];
  return <ClearingAlert lines={lines} />;
}

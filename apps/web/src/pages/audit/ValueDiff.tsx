import { Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../devices/format';
import { fieldChanges } from './format';

/** Fields whose recorded value is an enum word: shown through the catalogue, not as stored. */
const ENUM_FIELDS: Record<string, string> = {
  alarmType: 'alarms.type',
  resolveType: 'alarms.resolveType',
  resolveState: 'alarms.resolveState',
  permission: 'devices.batch.permission',
  version: 'devices.version',
  mode: 'devices.mode',
  power: 'devices.power',
};
/** Fields holding an instant (milliseconds): shown as a date and time. */
const TIME_FIELDS = new Set(['startTime', 'endTime', 'expiresAt', 'calibratedAt', 'nextDueAt', 'createTime']);

/** A field's name in the reader's language; a field this console has no name for shows as stored. */
function fieldLabel(t: TFunction, field: string): string {
  return t(`audit.field.${field}`, { defaultValue: field });
}

function fieldValue(t: TFunction, field: string, shown: string): string {
  if (shown === 'true' || shown === 'false') return t(`audit.value.${shown}`);
  if (TIME_FIELDS.has(field) && /^\d+$/.test(shown)) return formatTime(Number(shown));
  const prefix = ENUM_FIELDS[field];
  return prefix ? t(`${prefix}.${shown}`, { defaultValue: shown }) : shown;
}

/** Old -> new, one line per changed field; the empty field name stands for the whole value. */
export function ValueDiff({ before, after, limit }: { before: unknown; after: unknown; limit?: number }) {
  const { t } = useTranslation();
  const changes = fieldChanges(before, after);
  if (changes.length === 0)
    return <Typography.Text type="secondary">{t('audit.operation.noChange')}</Typography.Text>;
  const shown = limit ? changes.slice(0, limit) : changes;
  return (
    <div data-testid="value-diff">
      {shown.map((c) => (
        <div key={c.field || '-'} data-testid={`diff-${c.field || 'value'}`}>
          {c.field ? <Typography.Text strong>{fieldLabel(t, c.field)}: </Typography.Text> : null}
          {c.before !== '' ? (
            <Typography.Text delete type="danger">
              {fieldValue(t, c.field, c.before)}
            </Typography.Text>
          ) : null}
          {c.before !== '' && c.after !== '' ? ' → ' : null}
          {c.after !== '' ? (
            <Typography.Text type="success">{fieldValue(t, c.field, c.after)}</Typography.Text>
          ) : null}
        </div>
      ))}
      {shown.length < changes.length ? <Typography.Text type="secondary">…</Typography.Text> : null}
    </div>
  );
}

import type { OperationLogEntry } from '@coldchain/contract';
import type { TFunction } from 'i18next';
import { formatTime } from '../devices/format';
import { actionTitle, targetTitle } from './format';

/**
 * One operation log entry as a sentence in the reader's language ("Demo Admin added the monitor
 * “Cold room” (DEMO0007)"), from what the entry itself carries: the action, the target, and the
 * old and new values the server recorded (issue 20: the log showed `alarmType: overLimit`).
 * Sentences live in `audit.sentence.<action>` of both catalogues; i18n.test.ts fails when an
 * action the server can record has none. An action this console does not know yet (a newer
 * server) still reads as "who: action title (target)".
 */
export function operationSentence(t: TFunction, language: string, entry: OperationLogEntry): string {
  const vars = sentenceVars(t, entry);
  const sentence = t(`audit.sentence.${entry.action}`, { ...vars, defaultValue: MISSING });
  if (sentence !== MISSING) return sentence;
  return t('audit.sentenceParts.unknown', {
    ...vars,
    action: actionTitle(entry.action, language),
    target: `${targetTitle(entry.targetType, language)} #${entry.targetId}`,
  });
}

/** What i18next answers for an action without a sentence (a value no catalogue holds). */
const MISSING = '\u0000';

type Values = Record<string, unknown>;

function record(value: unknown): Values {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Values) : {};
}

function text(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

/** Every value a sentence may name; a missing one reads as the target's number, never as `{{x}}`. */
function sentenceVars(t: TFunction, entry: OperationLogEntry) {
  const before = record(entry.before);
  const after = record(entry.after);
  const pick = (field: string) => text(after[field]) || text(before[field]);
  const id = entry.targetId;
  const name = pick('name') || pick('orderNo');
  const quoted = (value: string) => (value ? t('audit.sentenceParts.quoted', { name: value }) : `#${id}`);
  const enabled = after.enabled;
  const list = (field: string) => (Array.isArray(after[field]) ? (after[field] as unknown[]).length : 0);
  const alarmType = pick('alarmType');
  const resolveType = pick('resolveType');
  const permission = pick('permission');
  const endReason = pick('endReason');
  const format = pick('format');
  return {
    who:
      entry.userId === null
        ? t('audit.operation.platform')
        : entry.userName || t('audit.sentenceParts.someone'),
    id,
    name: quoted(name),
    serial: pick('serial') || '-',
    channel: pick('channel') || '-',
    roleName: quoted(pick('roleName')),
    departmentId: pick('departmentId') || '-',
    orderNo: pick('orderNo') || `#${id}`,
    months: pick('months') || '-',
    rows: pick('rows') || '0',
    count: list('deviceIds') || list('userIds') || 1,
    period: periodText(t, after.startTime, after.endTime),
    format: format ? format.toUpperCase() : '-',
    onOff: t(`audit.sentenceParts.onOff.${enabled === false ? 'off' : 'on'}`),
    alarmType: alarmType ? t(`alarms.type.${alarmType}`, { defaultValue: alarmType }) : '',
    resolveType: resolveType ? t(`alarms.resolveType.${resolveType}`, { defaultValue: resolveType }) : '-',
    permission: permission ? t(`devices.batch.permission.${permission}`, { defaultValue: permission }) : '-',
    endReason: endReason
      ? t(`alarms.detail.endReason.${endReason}`, { name: entry.userName, defaultValue: endReason })
      : '-',
    // Sentences are plain text: React escapes them, so i18next must not escape again.
    interpolation: { escapeValue: false },
  };
}

function periodText(t: TFunction, start: unknown, end: unknown): string {
  if (typeof start !== 'number' || typeof end !== 'number') return t('audit.sentenceParts.allTime');
  return t('audit.sentenceParts.period', { start: formatTime(start), end: formatTime(end) });
}

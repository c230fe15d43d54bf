import { ResolveState } from '@coldchain/contract';

export const ALARM_INFO_PATH = '/alarm/alarmInfo';
export const ALARM_DETAIL_PATH = '/alarm/alarmInfo/alarmDetail';

export function alarmDetailUrl(id: string): string {
  return `${ALARM_DETAIL_PATH}?id=${encodeURIComponent(id)}`;
}

export const RESOLVE_STATES = [
  ResolveState.Pending,
  ResolveState.InProgress,
  ResolveState.Resolved,
  ResolveState.Expired,
  ResolveState.Normalized,
] as const;

export const RESOLVE_COLORS: Record<number, string> = {
  [ResolveState.Pending]: 'red',
  [ResolveState.InProgress]: 'orange',
  [ResolveState.Resolved]: 'green',
  [ResolveState.Expired]: 'default',
  [ResolveState.Normalized]: 'blue',
};

export const LEVEL_COLORS: Record<number, string> = { 1: 'gold', 2: 'orange', 3: 'red' };

/** The alarm text in the interface language: `cn` for Simplified Chinese, else `en`. */
export function contentIn(language: string, content: { cn: string; en: string } | null | undefined): string {
  if (!content) return '';
  return language === 'zh-CN' ? content.cn || content.en : content.en || content.cn;
}

/** Resolve types offered in the resolve form (stored as these keys). */
export const RESOLVE_TYPES = ['handled', 'falseAlarm', 'equipmentFault', 'powerRestored', 'other'] as const;

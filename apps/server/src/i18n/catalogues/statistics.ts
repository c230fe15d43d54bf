import type { Catalogue, LabelCatalogue } from './types';

/** Messages of the statistics page, in English and Simplified Chinese. */
export const statisticsMessages = {
  'rule.statisticsPeriod': {
    en: 'Statistics may cover at most 366 days; choose a shorter period',
    cn: '统计时间段最长为 366 天，请缩短时间段',
  },
  'rule.statisticsChart': {
    en: 'Select a chart: alarms by type, level or department, time to resolve, availability, notifications or credits',
    cn: '请选择图表：按类型、等级或部门的报警、处理时长、在线率、通知或消耗点数',
  },
} as const satisfies Catalogue;

/** Field labels of statistics requests, so validation messages name the field. */
export const statisticsLabels: LabelCatalogue = {
  chart: { en: 'Chart', cn: '图表' },
};

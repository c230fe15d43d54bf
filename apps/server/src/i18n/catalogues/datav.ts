import type { LabelCatalogue } from './types';

/** Field labels of the data-screen calls (modules/datav), by route. */
export const datavRouteLabels: Record<string, LabelCatalogue> = {
  '/api/datav/screenOverview': {
    sensorIds: { en: 'Sensors on the screen', cn: '大屏传感器' },
    trendDays: { en: 'Alarm trend period (7 or 30 days)', cn: '报警趋势周期（7 或 30 天）' },
  },
  '/api/index/getNotice': { pageSize: { en: 'Number of notices', cn: '消息条数' } },
};

import { Card, Skeleton } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { CHART_DAYS, useAlarmChart } from '../api';

// ECharts is large: the home page loads it only when the chart is drawn.
const AlarmChart = lazy(() => import('./AlarmChart'));

/** Alarms raised and resolved per day (`/api/userOrganize/indexChartForStatistics`). */
export function AlarmChartCard() {
  const { t } = useTranslation();
  const chart = useAlarmChart();
  const days = chart.data?.days ?? [];
  const total = days.reduce((sum, d) => sum + d.alarms, 0);
  return (
    <Card title={t('home.chart.title', { count: CHART_DAYS })} data-testid="home-alarm-chart">
      {chart.isPending ? (
        <Skeleton active />
      ) : (
        <Suspense fallback={<Skeleton active />}>
          <AlarmChart
            days={days}
            labels={{ alarms: t('home.chart.alarms'), resolved: t('home.chart.resolved') }}
            summary={t('home.chart.summary', { count: CHART_DAYS, total })}
          />
        </Suspense>
      )}
    </Card>
  );
}

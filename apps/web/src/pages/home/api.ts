import type { ChartStatistics, CompanyDataInfo } from '@coldchain/contract';
import { useQuery } from '@tanstack/react-query';
import { request } from '../../api/request';
import { useCompanyId } from '../../session/queries';

/** How many days the home chart spans. */
export const CHART_DAYS = 7;

export const fetchCompanyDataInfo = () => request<CompanyDataInfo>('/api/userOrganize/companyDataInfo');
export const fetchAlarmChart = (days: number) =>
  request<ChartStatistics>('/api/userOrganize/indexChartForStatistics', { days });

// Keyed by the stored company (null: the server's current one), so a switch (by hand or by the company loop) shows the new company's figures.
export function useCompanyDataInfo() {
  const companyId = useCompanyId();
  return useQuery({
    queryKey: ['home', 'companyDataInfo', companyId],
    queryFn: fetchCompanyDataInfo,
  });
}

export function useAlarmChart(days = CHART_DAYS) {
  const companyId = useCompanyId();
  return useQuery({
    queryKey: ['home', 'alarmChart', companyId, days],
    queryFn: () => fetchAlarmChart(days),
  });
}

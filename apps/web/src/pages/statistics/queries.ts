import type { ExportStatisticsRequest, Statistics, StatisticsRequest } from '@coldchain/contract';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { type FileResponse, request } from '../../api/request';

export const STATISTICS_PATH = '/api/statistics/companyStatistics';
export const EXPORT_STATISTICS_PATH = '/api/statistics/exportStatistics';

export const fetchStatistics = (body: StatisticsRequest) => request<Statistics>(STATISTICS_PATH, body);
/** The file itself; refusals come as envelopes and are shown by the request wrapper. */
export const exportStatistics = (body: ExportStatisticsRequest) =>
  request<FileResponse>(EXPORT_STATISTICS_PATH, body);

/** Every chart of the page in one call; the previous period's charts stay while the next loads. */
export function useStatistics(body: StatisticsRequest) {
  return useQuery({
    queryKey: ['statistics', body],
    queryFn: () => fetchStatistics(body),
    placeholderData: keepPreviousData,
  });
}

export function useExportStatistics() {
  return useMutation({ mutationFn: exportStatistics });
}

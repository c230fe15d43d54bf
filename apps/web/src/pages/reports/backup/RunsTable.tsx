import type { ReportRunView } from '@coldchain/contract';
import { type TableColumnsType, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/DataTable';
import { REPORT_PATHS, useDownload, useReportRuns } from '../api';
import { formatBytes, formatDay, formatDuration, formatTime } from '../format';
import { RunDownloadButton, RunError, RunStatusTag } from '../shared/runs';
import { LIST_PAGE_SIZE, LoadError, listPagination } from '../shared/TaskList';

/** Runs of one task (`taskId`) or of every task the caller sees: newest first, refreshed while one works. */
export function RunsTable({ taskId }: { taskId?: string }) {
  const { t } = useTranslation();
  const [pageNum, setPageNum] = useState(1);
  const runs = useReportRuns({ pageNum, pageSize: LIST_PAGE_SIZE, ...(taskId ? { taskId } : {}) });
  const download = useDownload(REPORT_PATHS.downloadRun);

  const columns: TableColumnsType<ReportRunView> = [
    ...(taskId ? [] : [{ title: t('reports.field.task'), dataIndex: 'taskName', key: 'taskName' }]),
    {
      title: t('reports.field.period'),
      key: 'period',
      render: (_, run) => `${formatDay(run.startTime)} – ${formatDay(run.endTime)}`,
    },
    {
      title: t('reports.field.createTime'),
      key: 'createTime',
      render: (_, run) => formatTime(run.createTime),
    },
    {
      title: t('reports.field.fileName'),
      key: 'fileName',
      render: (_, run) => (
        <Typography.Text style={{ wordBreak: 'break-all' }}>{run.fileName ?? '-'}</Typography.Text>
      ),
    },
    { title: t('reports.field.size'), key: 'size', render: (_, run) => formatBytes(run.size) },
    { title: t('reports.field.duration'), key: 'duration', render: (_, run) => formatDuration(run.duration) },
    {
      title: t('reports.field.error'),
      key: 'error',
      render: (_, run) => <RunError error={run.error} maxWidth={280} />,
    },
    {
      title: t('reports.field.status'),
      key: 'status',
      render: (_, run) => <RunStatusTag status={run.status} labelPrefix="reports.runStatus" />,
    },
    {
      title: t('reports.common.actions'),
      key: 'actions',
      render: (_, run) =>
        run.fileName ? (
          <RunDownloadButton
            runId={run.id}
            download={download}
            ariaLabel={t('reports.common.downloadName', { name: run.fileName })}
          >
            {t('reports.common.download')}
          </RunDownloadButton>
        ) : (
          '-'
        ),
    },
  ];

  return (
    <>
      {runs.isError && <LoadError ns="reports" onRetry={() => runs.refetch()} testId="runs-error" />}
      <DataTable<ReportRunView>
        rowKey="id"
        keyColumns={['status']}
        columns={columns}
        dataSource={runs.data?.list ?? []}
        loading={runs.isLoading}
        locale={{ emptyText: t('reports.run.empty') }}
        onRow={(run) => ({ 'data-testid': `run-row-${run.id}` }) as object}
        pagination={listPagination(pageNum, runs.data?.total ?? 0, setPageNum)}
        data-testid={taskId ? `runs-table-${taskId}` : 'runs-table'}
      />
    </>
  );
}

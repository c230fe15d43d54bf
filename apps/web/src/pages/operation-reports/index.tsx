import { DownloadOutlined, EyeOutlined, SettingOutlined } from '@ant-design/icons';
import { type OperationRunStatus, OperationRunStatuses, type OperationRunView } from '@coldchain/contract';
import { Alert, Button, Card, Drawer, Flex, Select, Spin, type TableColumnsType, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DataTable } from '../../components/DataTable';
import { useDeviceType } from '../../layout/useDeviceType';
import { RunDownloadButton, RunError, RunStatusTag } from '../reports/shared/runs';
import { LIST_PAGE_SIZE, LoadError, listPagination } from '../reports/shared/TaskList';
import { TASK_MANAGE_PATH, useDownloadRun, useOperationRuns, useRunFigures } from './api';
import { formatInstant, formatPeriod } from './format';
import { ReportView } from './ReportView';

/** The figures of one run in a drawer, with its PDF to download. */
function ReportDrawer({ run, onClose }: { run: OperationRunView | null; onClose: () => void }) {
  const { t } = useTranslation();
  const mobile = useDeviceType() === 'mobile';
  const figures = useRunFigures(run?.id ?? null);
  const download = useDownloadRun();
  return (
    <Drawer
      open={run !== null}
      onClose={onClose}
      title={
        run
          ? t('operationReports.run.viewTitle', {
              name: run.taskName,
              period: formatPeriod(run.startTime, run.endTime, run.timeZone),
            })
          : ''
      }
      size={mobile ? '100%' : 880}
      destroyOnHidden
      extra={
        run?.fileName ? (
          <Button
            icon={<DownloadOutlined />}
            loading={download.isPending}
            onClick={() => download.mutate(run.id)}
            data-testid="report-view-download"
          >
            {t('operationReports.run.download')}
          </Button>
        ) : null
      }
      data-testid="report-drawer"
    >
      {figures.isLoading && <Spin />}
      {figures.isError && <Alert type="warning" showIcon title={t('operationReports.run.notReady')} />}
      {figures.data && <ReportView figures={figures.data.figures} />}
    </Drawer>
  );
}

/**
 * `operationReport`: the operation reports made, newest first, with their period, scope and
 * status; a report opens in a drawer with its figures and its PDF. Tasks are managed on
 * `taskManage` (a hidden page under this one).
 */
export default function OperationReportPage() {
  const { t } = useTranslation();
  const [pageNum, setPageNum] = useState(1);
  const [status, setStatus] = useState<OperationRunStatus | undefined>();
  const [viewing, setViewing] = useState<OperationRunView | null>(null);
  const runs = useOperationRuns({ pageNum, pageSize: LIST_PAGE_SIZE, ...(status ? { status } : {}) });
  const download = useDownloadRun();

  const columns: TableColumnsType<OperationRunView> = [
    { title: t('operationReports.field.task'), dataIndex: 'taskName', key: 'taskName' },
    {
      title: t('operationReports.field.scope'),
      key: 'scope',
      render: (_, run) => run.departmentName ?? t('operationReports.wholeCompany'),
    },
    {
      title: t('operationReports.field.period'),
      key: 'period',
      render: (_, run) => (
        <span>
          {t(`operationReports.duration.${run.duration}`)}:{' '}
          {formatPeriod(run.startTime, run.endTime, run.timeZone)}
        </span>
      ),
    },
    {
      title: t('operationReports.field.createTime'),
      key: 'createTime',
      render: (_, run) => formatInstant(run.createTime, run.timeZone),
    },
    {
      title: t('operationReports.field.error'),
      key: 'error',
      render: (_, run) => <RunError error={run.error} maxWidth={260} />,
    },
    {
      title: t('operationReports.field.status'),
      key: 'status',
      render: (_, run) => <RunStatusTag status={run.status} labelPrefix="operationReports.status" />,
    },
    {
      title: t('operationReports.field.actions'),
      key: 'actions',
      render: (_, run) =>
        run.status === 'done' ? (
          <Flex gap="small" wrap>
            <Button
              size="small"
              type="primary"
              icon={<EyeOutlined />}
              onClick={() => setViewing(run)}
              data-testid={`run-view-${run.id}`}
            >
              {t('operationReports.run.view')}
            </Button>
            <RunDownloadButton
              runId={run.id}
              download={download}
              ariaLabel={t('operationReports.run.downloadName', { name: run.fileName })}
            >
              PDF
            </RunDownloadButton>
          </Flex>
        ) : (
          '-'
        ),
    },
  ];

  return (
    <div>
      <Typography.Title level={2} data-testid="page-title">
        {t('menu.operationReport')}
      </Typography.Title>
      <Card>
        <Flex justify="space-between" align="center" gap="middle" wrap style={{ marginBottom: 16 }}>
          <Typography.Text type="secondary" style={{ flex: '1 1 320px' }}>
            {t('operationReports.intro')}
          </Typography.Text>
          <Flex gap="small" wrap>
            <Select
              allowClear
              value={status}
              onChange={(value) => {
                setStatus(value);
                setPageNum(1);
              }}
              placeholder={t('operationReports.filter.allStatuses')}
              options={OperationRunStatuses.map((value) => ({
                value,
                label: t(`operationReports.status.${value}`),
              }))}
              style={{ minWidth: 140 }}
              aria-label={t('operationReports.field.status')}
              data-testid="run-status-filter"
            />
            <Link to={TASK_MANAGE_PATH} data-testid="task-manage-link">
              <Button icon={<SettingOutlined />}>{t('operationReports.tasksLink')}</Button>
            </Link>
          </Flex>
        </Flex>
        {runs.isError && (
          <LoadError ns="operationReports" onRetry={() => runs.refetch()} testId="runs-error" />
        )}
        <DataTable<OperationRunView>
          rowKey="id"
          keyColumns={['status', 'actions']}
          columns={columns}
          dataSource={runs.data?.list ?? []}
          loading={runs.isLoading}
          locale={{ emptyText: t('operationReports.run.empty') }}
          onRow={(run) => ({ 'data-testid': `run-row-${run.id}` }) as object}
          pagination={listPagination(pageNum, runs.data?.total ?? 0, setPageNum)}
          data-testid="runs-table"
        />
      </Card>
      <ReportDrawer run={viewing} onClose={() => setViewing(null)} />
    </div>
  );
}

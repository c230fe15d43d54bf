import { HistoryOutlined } from '@ant-design/icons';
import type { ReportTaskView } from '@coldchain/contract';
import { Button, Card, Drawer, type TableColumnsType, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/DataTable';
import { useDeviceType } from '../../../layout/useDeviceType';
import { useNotify } from '../../../router/notify';
import { useHasAuthTag } from '../../../session/queries';
import { useDeleteTask, useReportTasks, useRunTask } from '../api';
import { formatTime } from '../format';
import { LIST_PAGE_SIZE, LoadError, listPagination, TaskActions, TaskToolbar } from '../shared/TaskList';
import { RunsTable } from './RunsTable';
import { TaskFormModal } from './TaskFormModal';

/**
 * Data report backup tasks (`dataBackup`): the task list with "run now", edit, delete and each
 * task's runs, and the runs of every task. Listing and downloading need `backup:view`; saving,
 * running and deleting need `backup:edit` (modules/report-tasks).
 */
export default function DataBackupPage() {
  const { t } = useTranslation();
  const notify = useNotify();
  const mobile = useDeviceType() === 'mobile';
  const canEdit = useHasAuthTag('backup:edit');
  const [pageNum, setPageNum] = useState(1);
  const [editing, setEditing] = useState<{ task: ReportTaskView | null } | null>(null);
  const [runsOf, setRunsOf] = useState<ReportTaskView | null>(null);
  const tasks = useReportTasks({ pageNum, pageSize: LIST_PAGE_SIZE });
  const run = useRunTask();
  const remove = useDeleteTask();

  const runNow = async (task: ReportTaskView) => {
    try {
      await run.mutateAsync({ id: task.id });
      notify({ type: 'success', content: t('reports.task.runQueued', { name: task.name }), duration: 3 });
      setRunsOf(task);
    } catch {
      // Shown by the request wrapper.
    }
  };

  const columns: TableColumnsType<ReportTaskView> = [
    { title: t('reports.field.name'), dataIndex: 'name', key: 'name' },
    { title: t('reports.field.type'), key: 'type', render: (_, task) => t(`reports.type.${task.type}`) },
    {
      title: t('reports.field.frequency'),
      key: 'frequency',
      render: (_, task) => (
        <span>
          {t(`reports.frequency.${task.frequency}`)}
          <Typography.Text type="secondary"> ({task.timeZone})</Typography.Text>
        </span>
      ),
    },
    { title: t('reports.field.format'), key: 'format', render: (_, task) => task.format.toUpperCase() },
    {
      title: t('reports.field.targets'),
      key: 'targets',
      render: (_, task) =>
        task.type === 'equipment'
          ? t('reports.task.equipmentCount', { count: task.equipmentIds.length })
          : task.type === 'audit' || (task.type === 'alarm' && task.deviceIds.length === 0)
            ? t('reports.task.wholeScope')
            : t('reports.task.deviceCount', { count: task.deviceIds.length }),
    },
    {
      title: t('reports.field.recipients'),
      key: 'recipients',
      render: (_, task) =>
        t('reports.task.recipientCount', { count: task.recipientIds.length + task.emails.length }),
    },
    { title: t('reports.field.nextRun'), key: 'nextRun', render: (_, task) => formatTime(task.nextRunTime) },
    {
      title: t('reports.common.actions'),
      key: 'actions',
      render: (_, task) => (
        <TaskActions
          ns="reports"
          task={task}
          canEdit={canEdit}
          running={run.isPending && run.variables?.id === task.id}
          onRun={() => runNow(task)}
          onEdit={() => setEditing({ task })}
          onDelete={() => remove.mutateAsync({ id: task.id }).catch(() => undefined)}
        >
          <Button
            size="small"
            icon={<HistoryOutlined />}
            onClick={() => setRunsOf(task)}
            data-testid={`task-runs-${task.id}`}
          >
            {t('reports.task.runs')}
          </Button>
        </TaskActions>
      ),
    },
  ];

  const taskList = (
    <>
      <TaskToolbar ns="reports" canEdit={canEdit} onAdd={() => setEditing({ task: null })} />
      {tasks.isError && <LoadError ns="reports" onRetry={() => tasks.refetch()} testId="tasks-error" />}
      <DataTable<ReportTaskView>
        rowKey="id"
        columns={columns}
        dataSource={tasks.data?.list ?? []}
        loading={tasks.isLoading}
        locale={{ emptyText: t('reports.task.empty') }}
        onRow={(task) => ({ 'data-testid': `task-row-${task.id}` }) as object}
        pagination={listPagination(pageNum, tasks.data?.total ?? 0, setPageNum)}
      />
    </>
  );

  return (
    <div>
      <Typography.Title level={2} data-testid="page-title">
        {t('menu.dataBackup')}
      </Typography.Title>
      <Card>
        <Tabs
          items={[
            { key: 'tasks', label: t('reports.tab.tasks'), children: taskList },
            { key: 'runs', label: t('reports.tab.runs'), children: <RunsTable /> },
          ]}
          data-testid="backup-tabs"
        />
      </Card>
      {editing && <TaskFormModal task={editing.task} onClose={() => setEditing(null)} />}
      <Drawer
        open={runsOf !== null}
        onClose={() => setRunsOf(null)}
        title={runsOf ? t('reports.task.runsOf', { name: runsOf.name }) : ''}
        size={mobile ? '100%' : 960}
        destroyOnHidden
        data-testid="runs-drawer"
      >
        {runsOf && <RunsTable taskId={runsOf.id} />}
      </Drawer>
    </div>
  );
}

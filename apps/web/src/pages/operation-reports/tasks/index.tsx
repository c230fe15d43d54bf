import type { OperationTaskView } from '@coldchain/contract';
import { Card, type TableColumnsType, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/DataTable';
import { useNotify } from '../../../router/notify';
import { useHasAuthTag } from '../../../session/queries';
import {
  LIST_PAGE_SIZE,
  LoadError,
  listPagination,
  TaskActions,
  TaskToolbar,
} from '../../reports/shared/TaskList';
import { useDeleteOperationTask, useOperationTasks, useRunOperationTask } from '../api';
import { formatInstant } from '../format';
import { TaskModal } from './TaskModal';

/**
 * `taskManage`: the operation report tasks with create, edit, "run now" and delete. Listing needs
 * `report:view`; changing and running need `report:edit` (modules/operation-reports).
 */
export default function TaskManagePage() {
  const { t } = useTranslation();
  const notify = useNotify();
  const canEdit = useHasAuthTag('report:edit');
  const [pageNum, setPageNum] = useState(1);
  const [editing, setEditing] = useState<{ task: OperationTaskView | null } | null>(null);
  const tasks = useOperationTasks({ pageNum, pageSize: LIST_PAGE_SIZE });
  const run = useRunOperationTask();
  const remove = useDeleteOperationTask();

  const runNow = async (task: OperationTaskView) => {
    try {
      await run.mutateAsync({ id: task.id });
      notify({
        type: 'success',
        content: t('operationReports.task.runQueued', { name: task.name }),
        duration: 3,
      });
    } catch {
      // Shown by the request wrapper.
    }
  };

  const columns: TableColumnsType<OperationTaskView> = [
    { title: t('operationReports.field.name'), dataIndex: 'name', key: 'name' },
    {
      title: t('operationReports.field.scope'),
      key: 'scope',
      render: (_, task) => task.departmentName ?? t('operationReports.wholeCompany'),
    },
    {
      title: t('operationReports.field.duration'),
      key: 'duration',
      render: (_, task) => t(`operationReports.duration.${task.duration}`),
    },
    {
      title: t('operationReports.field.start'),
      key: 'start',
      render: (_, task) => (
        <span>
          {task.startDate} {String(task.startHour).padStart(2, '0')}:00
          <Typography.Text type="secondary"> ({task.timeZone})</Typography.Text>
        </span>
      ),
    },
    {
      title: t('operationReports.field.notifiers'),
      key: 'notifiers',
      render: (_, task) => {
        const names = [...task.notifierNames, ...task.emails];
        return (
          <Typography.Text style={{ maxWidth: 220 }} ellipsis={{ tooltip: names.join(', ') }}>
            {names.join(', ') || '-'}
          </Typography.Text>
        );
      },
    },
    {
      title: t('operationReports.field.nextRun'),
      key: 'nextRun',
      render: (_, task) => formatInstant(task.nextRunTime, task.timeZone),
    },
    {
      title: t('operationReports.field.actions'),
      key: 'actions',
      render: (_, task) => (
        <TaskActions
          ns="operationReports"
          task={task}
          canEdit={canEdit}
          running={run.isPending && run.variables?.id === task.id}
          onRun={() => runNow(task)}
          onEdit={() => setEditing({ task })}
          onDelete={() => remove.mutateAsync({ id: task.id }).catch(() => undefined)}
        />
      ),
    },
  ];

  return (
    <div>
      <Typography.Title level={2} data-testid="page-title">
        {t('menu.taskManage')}
      </Typography.Title>
      <Card>
        <TaskToolbar
          ns="operationReports"
          canEdit={canEdit}
          onAdd={() => setEditing({ task: null })}
          introStyle={{ flex: '1 1 320px' }}
        />
        {tasks.isError && (
          <LoadError ns="operationReports" onRetry={() => tasks.refetch()} testId="tasks-error" />
        )}
        <DataTable<OperationTaskView>
          rowKey="id"
          keyColumns={['actions']}
          columns={columns}
          dataSource={tasks.data?.list ?? []}
          loading={tasks.isLoading}
          locale={{ emptyText: t('operationReports.task.empty') }}
          onRow={(task) => ({ 'data-testid': `task-row-${task.id}` }) as object}
          pagination={listPagination(pageNum, tasks.data?.total ?? 0, setPageNum)}
          data-testid="tasks-table"
        />
      </Card>
      {editing && <TaskModal task={editing.task} onClose={() => setEditing(null)} />}
    </div>
  );
}

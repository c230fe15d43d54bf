import {
  DeleteOutlined,
  EditOutlined,
  PlayCircleOutlined,
  PlusOutlined,
  ReloadOutlined,
} from '@ant-design/icons';
import { Alert, Button, Flex, Popconfirm, Space, type TablePaginationConfig, Typography } from 'antd';
import type { CSSProperties, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReportNs } from './TaskFields';

/** Rows a page of the task and run lists. */
export const LIST_PAGE_SIZE = 20;

/** The pager of a task or run list: fixed page size, hidden while one page holds all. */
export function listPagination(
  current: number,
  total: number,
  onChange: (page: number) => void,
): TablePaginationConfig {
  return {
    current,
    pageSize: LIST_PAGE_SIZE,
    total,
    showSizeChanger: false,
    hideOnSinglePage: true,
    onChange,
  };
}

/** A list that failed to load, with "retry". */
export function LoadError({ ns, onRetry, testId }: { ns: ReportNs; onRetry: () => void; testId: string }) {
  const { t } = useTranslation();
  return (
    <Alert
      type="error"
      showIcon
      title={t(`${ns}.common.loadFailed`)}
      action={
        <Button size="small" icon={<ReloadOutlined />} onClick={onRetry}>
          {t(`${ns}.common.retry`)}
        </Button>
      }
      style={{ marginBottom: 12 }}
      data-testid={testId}
    />
  );
}

/** Above a task list: the page's note and, for editors, "add". */
export function TaskToolbar({
  ns,
  canEdit,
  onAdd,
  introStyle,
}: {
  ns: ReportNs;
  canEdit: boolean;
  onAdd: () => void;
  introStyle?: CSSProperties;
}) {
  const { t } = useTranslation();
  return (
    <Flex justify="space-between" align="center" gap="middle" wrap style={{ marginBottom: 16 }}>
      <Typography.Text type="secondary" style={introStyle}>
        {t(`${ns}.task.intro`)}
      </Typography.Text>
      {canEdit && (
        <Button type="primary" icon={<PlusOutlined />} onClick={onAdd} data-testid="task-add-open">
          {t(`${ns}.task.add`)}
        </Button>
      )}
    </Flex>
  );
}

/**
 * A task row's actions: for editors "run now", edit and delete (after a confirm); `children` stand
 * between "run now" and edit for everyone. With nothing to show, a dash.
 */
export function TaskActions({
  ns,
  task,
  canEdit,
  running,
  onRun,
  onEdit,
  onDelete,
  children,
}: {
  ns: ReportNs;
  task: { id: string; name: string };
  canEdit: boolean;
  running: boolean;
  onRun: () => void;
  onEdit: () => void;
  onDelete: () => Promise<unknown>;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  if (!canEdit && !children) return '-';
  return (
    <Space size="small" wrap>
      {canEdit && (
        <Button
          size="small"
          type="primary"
          icon={<PlayCircleOutlined />}
          loading={running}
          onClick={onRun}
          data-testid={`task-run-${task.id}`}
        >
          {t(`${ns}.task.runNow`)}
        </Button>
      )}
      {children}
      {canEdit && (
        <Button size="small" icon={<EditOutlined />} onClick={onEdit} data-testid={`task-edit-${task.id}`}>
          {t(`${ns}.common.edit`)}
        </Button>
      )}
      {canEdit && (
        <Popconfirm
          title={t(`${ns}.task.deleteConfirm`, { name: task.name })}
          description={t(`${ns}.task.deleteKeepsFiles`)}
          okText={t(`${ns}.common.delete`)}
          cancelText={t(`${ns}.common.cancel`)}
          okButtonProps={{ danger: true, ...({ 'data-testid': 'task-delete-confirm' } as object) }}
          onConfirm={onDelete}
        >
          <Button size="small" danger icon={<DeleteOutlined />} data-testid={`task-delete-${task.id}`}>
            {t(`${ns}.common.delete`)}
          </Button>
        </Popconfirm>
      )}
    </Space>
  );
}

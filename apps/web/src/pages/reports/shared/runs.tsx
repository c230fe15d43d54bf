import { DownloadOutlined } from '@ant-design/icons';
import { Button, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** The states of a report run; data report backups and operation reports share them. */
export type RunStatus = 'queued' | 'running' | 'done' | 'failed';

const STATUS_COLORS: Record<RunStatus, string> = {
  queued: 'default',
  running: 'processing',
  done: 'success',
  failed: 'error',
};

/** A run's state as a coloured tag; the label is `${labelPrefix}.${status}`. */
export function RunStatusTag({ status, labelPrefix }: { status: RunStatus; labelPrefix: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATUS_COLORS[status]} data-testid={`run-status-${status}`}>
      {t(`${labelPrefix}.${status}`)}
    </Tag>
  );
}

/** A failed run's message, cut at `maxWidth` with the whole text in a tooltip; a dash when none. */
export function RunError({ error, maxWidth }: { error: string | null | undefined; maxWidth: number }) {
  return error ? (
    <Typography.Text type="danger" style={{ maxWidth }} ellipsis={{ tooltip: error }}>
      {error}
    </Typography.Text>
  ) : (
    '-'
  );
}

/** Downloads one run's file; spins while that run's file is fetched. */
export function RunDownloadButton({
  runId,
  download,
  ariaLabel,
  children,
}: {
  runId: string;
  download: { isPending: boolean; variables?: string; mutate: (id: string) => void };
  ariaLabel: string;
  children: ReactNode;
}) {
  return (
    <Button
      size="small"
      icon={<DownloadOutlined />}
      loading={download.isPending && download.variables === runId}
      onClick={() => download.mutate(runId)}
      aria-label={ariaLabel}
      data-testid={`run-download-${runId}`}
    >
      {children}
    </Button>
  );
}

import type { ExportProgressView } from '@coldchain/contract';
import { useQuery } from '@tanstack/react-query';
import { Progress, Typography } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { request } from '../api/request';

/** How often a waiting dialog asks how far its export has got. */
const POLL_MS = 700;

/**
 * A fresh id for one export: random hex, since `crypto.randomUUID` exists only on secure pages
 * and the console is also served over plain HTTP on a local network.
 */
function newProgressId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The progress id of an export dialog: `begin` makes one for the request about to be sent,
 * `end` forgets it when the file arrived or the request failed.
 */
export function useExportProgressId() {
  const [progressId, setProgressId] = useState<string | null>(null);
  const begin = useCallback(() => {
    const id = newProgressId();
    setProgressId(id);
    return id;
  }, []);
  const end = useCallback(() => setProgressId(null), []);
  return { progressId, begin, end };
}

/**
 * What a long export has done so far (issue 15 item 4), shown in its dialog while the file is
 * made, instead of a button that only spins: "Reading data", then "Writing the file: n of m
 * rows" with a bar. Asks the server (`/api/export/progress`) every 0.7 s while `progressId` is
 * set; nothing is shown before the first answer.
 */
export function ExportProgress({ progressId, testId }: { progressId: string | null; testId: string }) {
  const { t } = useTranslation();
  const { data } = useQuery({
    queryKey: ['exportProgress', progressId],
    queryFn: () => request<ExportProgressView>('/api/export/progress', { progressId }),
    enabled: progressId !== null,
    refetchInterval: POLL_MS,
    gcTime: 0,
  });
  if (!progressId || !data || data.phase === 'unknown' || data.phase === 'failed') return null;
  const writing = data.phase !== 'reading' && data.total > 0;
  const percent = writing ? Math.min(100, Math.floor((data.done / data.total) * 100)) : 0;
  return (
    <div data-testid={testId} role="status" aria-live="polite">
      <Typography.Text type="secondary">
        {writing
          ? t('common.exportProgress.writing', {
              done: data.done.toLocaleString(),
              total: data.total.toLocaleString(),
            })
          : t('common.exportProgress.reading')}
      </Typography.Text>
      <Progress percent={percent} status="active" showInfo={writing} size="small" />
    </div>
  );
}

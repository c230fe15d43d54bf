import { DownloadOutlined, FileExcelOutlined } from '@ant-design/icons';
import type { StatisticsChart as ChartName } from '@coldchain/contract';
import { Alert, App, Button, Card, Empty, Flex, Skeleton, Space, Tooltip, Typography } from 'antd';
import type { EChartsCoreOption, EChartsType } from 'echarts/core';
import { lazy, type ReactNode, Suspense, useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveFile } from '../../devices/batch/batch-queries';
import { chartPng } from '../chart-image';

// ECharts is large: it loads with the first chart drawn, not with the page or the entry.
const StatisticsChart = lazy(() => import('./StatisticsChart'));

export type CardState =
  | { kind: 'loading' }
  | { kind: 'error'; retry: () => void }
  | { kind: 'noRight'; right: 'alarm' | 'device' | 'billing' }
  | { kind: 'empty' }
  | { kind: 'ready'; option: EChartsCoreOption; summary: string };

interface Props {
  chart: ChartName;
  title: string;
  state: CardState;
  height?: number;
  /** Controls beside the title (the alarm chart's grouping). */
  switcher?: ReactNode;
  /** Shown under the chart when it is drawn (figures, a table). */
  footer?: ReactNode;
  /** Asks for the chart's figures as an Excel file; absent when the member may not export. */
  onExport?: (chart: ChartName) => void;
  exporting?: boolean;
}

/**
 * One chart of the statistics page with its states (loading, error, no right, empty) and its two
 * exports: the picture as PNG (drawn in the browser) and the figures as xlsx (the server's export).
 */
export function ChartCard({
  chart,
  title,
  state,
  height = 300,
  switcher,
  footer,
  onExport,
  exporting,
}: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const instance = useRef<EChartsType | null>(null);
  const [drawn, setDrawn] = useState(false);
  const onInstance = useCallback((next: EChartsType | null) => {
    instance.current = next;
    setDrawn(next !== null);
  }, []);
  const ready = state.kind === 'ready';

  const savePng = async () => {
    if (!instance.current) return;
    try {
      const blob = await chartPng(instance.current);
      saveFile({ blob, filename: `${chart}.png` }, `${chart}.png`);
    } catch {
      void message.error(t('statistics.export.pngFailed'));
    }
  };

  const body = (() => {
    switch (state.kind) {
      case 'loading':
        return <Skeleton active aria-label={t('statistics.state.loading')} />;
      case 'error':
        return (
          <Alert
            type="error"
            showIcon
            title={t('statistics.state.error')}
            action={
              <Button size="small" onClick={state.retry}>
                {t('statistics.state.retry')}
              </Button>
            }
          />
        );
      case 'noRight':
        return <Alert type="info" showIcon title={t(`statistics.state.noRight.${state.right}`)} />;
      case 'empty':
        return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('statistics.state.empty')} />;
      case 'ready':
        return (
          <>
            <Suspense fallback={<Skeleton active />}>
              <StatisticsChart
                option={state.option}
                height={height}
                summary={state.summary}
                testId={`statistics-${chart}-canvas`}
                onInstance={onInstance}
              />
            </Suspense>
            {footer}
          </>
        );
    }
  })();

  return (
    <Card data-testid={`statistics-${chart}`}>
      {/* Title and controls wrap onto two lines on a phone, instead of squeezing the title out. */}
      <Flex justify="space-between" align="center" gap={8} wrap style={{ marginBottom: 12 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        <Flex gap={8} wrap align="center">
          {switcher}
          <Space.Compact>
            <Tooltip title={t('statistics.export.pngTitle')}>
              <Button
                icon={<DownloadOutlined />}
                disabled={!ready || !drawn}
                onClick={() => void savePng()}
                aria-label={t('statistics.export.pngTitle')}
                data-testid={`statistics-${chart}-png`}
              >
                {t('statistics.export.png')}
              </Button>
            </Tooltip>
            {onExport && (
              <Tooltip title={t('statistics.export.xlsxTitle')}>
                <Button
                  icon={<FileExcelOutlined />}
                  disabled={!ready}
                  loading={exporting}
                  onClick={() => onExport(chart)}
                  aria-label={t('statistics.export.xlsxTitle')}
                  data-testid={`statistics-${chart}-xlsx`}
                >
                  {t('statistics.export.xlsx')}
                </Button>
              </Tooltip>
            )}
          </Space.Compact>
        </Flex>
      </Flex>
      {body}
    </Card>
  );
}

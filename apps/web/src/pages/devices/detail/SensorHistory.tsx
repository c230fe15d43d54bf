import type { SensorView } from '@coldchain/contract';
import { Button, Card, Empty, Flex, Segmented, Select, Spin, Statistic, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type FileResponse, request } from '../../../api/request';
import { sensorName } from '../../../components/labels';
import { ReadingsReportModal } from '../../../components/ReadingsReportModal';
import { useHasAuthTag } from '../../../session/queries';
import { useCanExport } from '../../../signature/SignPasswordField';
import { formatTime } from '../format';
import { useHistoryData } from '../queries';
import { HistoryChart } from './HistoryChart';
import {
  historyRequest,
  presetWindow,
  RANGE_PRESETS,
  type RangePreset,
  toSeriesData,
  zoomWindow,
} from './history-model';

interface Zoom {
  start: number;
  end: number;
}
const FULL: Zoom = { start: 0, end: 100 };

/**
 * History of one sensor: range presets, the zoomable chart and the statistics of the visible
 * window. Each zoom asks the server again for that window with about one point per pixel, so
 * zooming from a year to an hour ends with every stored reading.
 */
export function SensorHistory({ sensors, now }: { sensors: SensorView[]; now: number }) {
  const { t } = useTranslation();
  const [sensorId, setSensorId] = useState(sensors[0]?.id ?? '');
  const [preset, setPreset] = useState<RangePreset>('24h');
  // The zoom is kept in percentages so that the window follows `now` as readings arrive.
  const [zoom, setZoom] = useState<Zoom>(FULL);
  const [width, setWidth] = useState(0);
  const [reporting, setReporting] = useState(false);
  const mayExport = useHasAuthTag('device:export');
  const exportAllowed = useCanExport();
  const canReport = mayExport && exportAllowed;
  const sensor = sensors.find((s) => s.id === sensorId) ?? sensors[0];

  const range = useMemo(() => presetWindow(preset, now), [preset, now]);
  const visible = useMemo(() => zoomWindow(range, zoom.start, zoom.end), [range, zoom]);
  const history = useHistoryData(sensor && width > 0 ? historyRequest(sensor.id, visible, width) : null);
  const data = useMemo(() => toSeriesData(history.data?.points ?? []), [history.data]);
  const points = history.data?.points ?? [];

  if (!sensor) return null;

  const stat = (key: 'min' | 'max' | 'avg' | 'mkt') => {
    const value = history.data?.[key];
    return (
      <Statistic
        key={key}
        title={t(`devices.chart.${key}`)}
        value={value === null || value === undefined ? '-' : value.toFixed(2)}
        suffix={value === null || value === undefined ? undefined : sensor.unit}
        data-testid={`history-stat-${key}`}
      />
    );
  };

  return (
    <Card
      title={t('devices.chart.title')}
      extra={
        <Flex gap="small" wrap align="center">
          <Select
            value={sensor.id}
            onChange={(id) => {
              setSensorId(id);
              setZoom(FULL);
            }}
            options={sensors.map((s) => ({ value: s.id, label: sensorName(t, s.name) }))}
            style={{ minWidth: 160 }}
            aria-label={t('devices.chart.sensor')}
            data-testid="history-sensor"
          />
          <Segmented<RangePreset>
            value={preset}
            onChange={(next) => {
              setPreset(next);
              setZoom(FULL);
            }}
            options={RANGE_PRESETS.map((p) => ({
              value: p,
              label: <span data-testid={`history-preset-${p}`}>{t(`devices.chart.preset.${p}`)}</span>,
            }))}
          />
          {canReport && (
            <Button onClick={() => setReporting(true)} data-testid="sensor-report-open">
              {t('common.report.open')}
            </Button>
          )}
        </Flex>
      }
    >
      {reporting && (
        <ReadingsReportModal
          what={sensorName(t, sensor.name)}
          testId="sensor-report"
          create={(period) =>
            request<FileResponse>('/api/report/sensorReport', { ...period, sensorId: sensor.id })
          }
          onClose={() => setReporting(false)}
        />
      )}
      <Flex gap="large" wrap style={{ marginBottom: 8 }}>
        {(['min', 'max', 'avg'] as const).map(stat)}
        {sensor.type === 'temperature' && stat('mkt')}
      </Flex>
      <Flex justify="space-between" wrap>
        <Typography.Text
          type="secondary"
          data-testid="history-points"
          data-count={points.length}
          data-first={points[0]?.[0] ?? ''}
          data-last={points.at(-1)?.[0] ?? ''}
        >
          {formatTime(visible.start)} ~ {formatTime(visible.end)} ·{' '}
          {t('devices.chart.points', { count: points.length })}
        </Typography.Text>
        {history.isFetching && <Spin size="small" />}
      </Flex>
      {history.isSuccess && points.length === 0 && (
        <Empty description={t('devices.chart.noData')} data-testid="history-empty" />
      )}
      <HistoryChart
        range={range}
        data={data}
        seriesName={sensorName(t, sensor.name)}
        unit={sensor.unit}
        zoomResetKey={`${sensor.id}:${preset}`}
        onZoom={(start, end) => setZoom({ start, end })}
        onWidth={setWidth}
      />
    </Card>
  );
}

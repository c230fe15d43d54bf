import { AlarmTypes, type Statistics, type StatisticsChart } from '@coldchain/contract';
import { Col, Row, Segmented, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCanExport } from '../../signature/SignPasswordField';
import {
  availabilityOption,
  departmentLabel,
  formatMinutes,
  notificationsOption,
  resolveTimeOption,
  timeSeriesOption,
} from './chart-options';
import { type CardState, ChartCard } from './components/ChartCard';
import { useChartExport } from './components/ChartExport';
import { AvailabilityFooter, ResolveTimeFooter } from './components/ChartFooters';
import { StatisticsFilters } from './components/StatisticsFilters';
import { browserTimeZone, type Period, type Preset, presetPeriod } from './period';
import { useStatistics } from './queries';

type AlarmGrouping = 'alarmsByType' | 'alarmsByLevel' | 'alarmsByDepartment';

/**
 * Statistics (menu "Statistics", `statistics:view`): alarms over time, time to resolve, device
 * availability, notifications and credits of one period, from one call; each chart saved as PNG
 * or its figures exported as xlsx. docs/decisions.md "Statistics (issue 15)".
 */
export default function StatisticsPage() {
  const { t } = useTranslation();
  const [preset, setPreset] = useState<Preset>('last7');
  const [period, setPeriod] = useState<Period>(() => presetPeriod('last7'));
  const [departmentId, setDepartmentId] = useState<string | undefined>();
  const [grouping, setGrouping] = useState<AlarmGrouping>('alarmsByType');
  const timeZone = useMemo(browserTimeZone, []);
  const body = { ...period, timeZone, ...(departmentId ? { departmentId } : {}) };
  const query = useStatistics(body);
  const canExport = useCanExport();
  const chartExport = useChartExport(body);
  const s = query.data;

  /** A section's card state from the one answer. */
  const stateOf = (
    section:
      | Statistics[keyof Pick<
          Statistics,
          'alarms' | 'resolveTime' | 'availability' | 'notifications' | 'credits'
        >]
      | undefined,
    right: 'alarm' | 'device' | 'billing',
    isEmpty: () => boolean,
    ready: () => Extract<CardState, { kind: 'ready' }>,
  ): CardState => {
    if (query.isError && !s) return { kind: 'error', retry: () => void query.refetch() };
    if (!s) return { kind: 'loading' };
    if (section === null) return { kind: 'noRight', right };
    if (isEmpty()) return { kind: 'empty' };
    return ready();
  };

  const alarmState = stateOf(
    s?.alarms,
    'alarm',
    () => s!.alarms!.total === 0,
    () => {
      const a = s!.alarms!;
      const series =
        grouping === 'alarmsByType'
          ? a.byType
              .slice()
              .sort((x, y) => AlarmTypes.indexOf(x.key) - AlarmTypes.indexOf(y.key))
              .map((x) => ({ name: t(`alarms.type.${x.key}`), counts: x.counts }))
          : grouping === 'alarmsByLevel'
            ? a.byLevel.map((x) => ({
                name: t('statistics.chart.level', { level: x.key }),
                counts: x.counts,
                color: ['#faad14', '#fa8c16', '#f5222d'][x.key - 1],
              }))
            : a.byDepartment.map((x) => ({
                name: departmentLabel(t, s!.departments, x.key),
                counts: x.counts,
              }));
      return {
        kind: 'ready',
        option: timeSeriesOption(s!, series),
        summary: t('statistics.chart.alarmsSummary', { count: a.total }),
      };
    },
  );

  const minutes = (v: number | null) => formatMinutes(t, v);
  const resolveState = stateOf(
    s?.resolveTime,
    'alarm',
    () => s!.resolveTime!.overall.resolved === 0 && s!.resolveTime!.overall.open === 0,
    () => {
      const o = s!.resolveTime!.overall;
      return {
        kind: 'ready',
        option: resolveTimeOption(t, s!),
        summary: t('statistics.chart.resolveSummary', {
          resolved: o.resolved,
          median: minutes(o.medianMinutes),
          p90: minutes(o.p90Minutes),
          worst: minutes(o.worstMinutes),
          open: o.open,
        }),
      };
    },
  );

  const availabilityState = stateOf(
    s?.availability,
    'device',
    () => s!.availability!.overall.ratio === null,
    () => ({
      kind: 'ready',
      option: availabilityOption(t, s!),
      summary: t('statistics.chart.availabilitySummary', {
        ratio: `${Math.round((s!.availability!.overall.ratio ?? 0) * 1000) / 10}%`,
        devices: s!.availability!.overall.devices,
      }),
    }),
  );

  const notificationState = stateOf(
    s?.notifications,
    'alarm',
    () => s!.notifications!.total === 0,
    () => ({
      kind: 'ready',
      option: notificationsOption(t, s!),
      summary: t('statistics.chart.notificationsSummary', { count: s!.notifications!.total }),
    }),
  );

  const creditState = stateOf(
    s?.credits,
    'billing',
    () => s!.credits!.total === 0,
    () => ({
      kind: 'ready',
      option: timeSeriesOption(
        s!,
        s!.credits!.byChannel.map((x) => ({ name: t(`alarms.setting.channel.${x.key}`), counts: x.counts })),
      ),
      summary: t('statistics.chart.creditsSummary', { count: s!.credits!.total }),
    }),
  );

  const onExport = canExport ? chartExport.start : undefined;
  const exporting = (chart: StatisticsChart) => chartExport.exporting === chart;

  return (
    <>
      <Typography.Title level={2} data-testid="page-title">
        {t('menu.statistics')}
      </Typography.Title>
      <StatisticsFilters
        preset={preset}
        period={period}
        departmentId={departmentId}
        timeZone={timeZone}
        statistics={s}
        onPreset={(next, nextPeriod) => {
          setPreset(next);
          if (nextPeriod) setPeriod(nextPeriod);
        }}
        onPeriod={setPeriod}
        onDepartment={setDepartmentId}
      />
      <Row gutter={[16, 16]}>
        <Col span={24}>
          <ChartCard
            chart={grouping}
            title={t('statistics.chart.alarms')}
            state={alarmState}
            onExport={onExport}
            exporting={exporting(grouping)}
            switcher={
              <Segmented<AlarmGrouping>
                size="small"
                value={grouping}
                onChange={setGrouping}
                data-testid="statistics-alarm-grouping"
                options={(['alarmsByType', 'alarmsByLevel', 'alarmsByDepartment'] as const).map((g) => ({
                  value: g,
                  label: t(`statistics.chart.${g}`),
                }))}
              />
            }
          />
        </Col>
        <Col xs={24} xl={12}>
          <ChartCard
            chart="resolveTime"
            exporting={exporting('resolveTime')}
            title={t('statistics.chart.resolveTime')}
            state={resolveState}
            onExport={onExport}
            footer={s?.resolveTime && <ResolveTimeFooter statistics={s} />}
          />
        </Col>
        <Col xs={24} xl={12}>
          <ChartCard
            chart="availability"
            exporting={exporting('availability')}
            title={t('statistics.chart.availability')}
            state={availabilityState}
            onExport={onExport}
            footer={s?.availability && <AvailabilityFooter statistics={s} />}
          />
        </Col>
        <Col xs={24} xl={12}>
          <ChartCard
            chart="notifications"
            exporting={exporting('notifications')}
            title={t('statistics.chart.notifications')}
            state={notificationState}
            onExport={onExport}
          />
        </Col>
        <Col xs={24} xl={12}>
          <ChartCard
            chart="credits"
            exporting={exporting('credits')}
            title={t('statistics.chart.credits')}
            state={creditState}
            onExport={onExport}
          />
        </Col>
      </Row>
      {chartExport.dialog}
    </>
  );
}

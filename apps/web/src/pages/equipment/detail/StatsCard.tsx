import { Card, DatePicker, Empty, Flex, Progress, Segmented, Statistic, Table, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sensorName } from '../../../components/labels';
import { type StatsRequest, useEquipmentStats } from '../api';
import { formatNumber, formatTime } from '../format';
import { type EquipmentStats, STAT_PERIODS, type StatPeriod } from '../types';

/** At most this share of the budget used shows green; above it orange, and red once spent. */
const BUDGET_WARN_RATIO = 0.8;

function gaugeColor(ratio: number): string {
  if (ratio >= 1) return '#ff4d4f';
  return ratio >= BUDGET_WARN_RATIO ? '#faad14' : '#52c41a';
}

/**
 * Per period (last day, week, month, or a custom range): mean kinetic temperature, minimum and
 * maximum per sensor, the time out of range, and the excursion budget consumed as a gauge.
 */
export function StatsCard({ equipmentId }: { equipmentId: string }) {
  const { t } = useTranslation();
  const [period, setPeriod] = useState<StatPeriod>('day');
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(null);
  const body: StatsRequest | null =
    period !== 'custom'
      ? { id: equipmentId, period }
      : range
        ? { id: equipmentId, period, startTime: range[0].valueOf(), endTime: range[1].valueOf() }
        : null;
  const stats = useEquipmentStats(body);

  return (
    <Card
      title={t('equipment.stats.title')}
      data-testid="equipment-stats"
      extra={
        <Segmented<StatPeriod>
          size="small"
          value={period}
          onChange={setPeriod}
          options={STAT_PERIODS.map((p) => ({ value: p, label: t(`equipment.stats.period.${p}`) }))}
          data-testid="stats-period"
        />
      }
    >
      {period === 'custom' && (
        <DatePicker.RangePicker
          showTime
          format="YYYY-MM-DD HH:mm"
          style={{ marginBottom: 16, maxWidth: '100%' }}
          onChange={(value) => setRange(value?.[0] && value[1] ? [value[0], value[1]] : null)}
          data-testid="stats-range"
        />
      )}
      {stats.data ? <StatsBody stats={stats.data} /> : <Empty description={t('equipment.stats.pickRange')} />}
    </Card>
  );
}

function StatsBody({ stats }: { stats: EquipmentStats }) {
  const { t } = useTranslation();
  const budget = stats.budget;
  const ratio = budget ? budget.ratio : 0;
  return (
    <Flex vertical gap="middle">
      <Typography.Text type="secondary">
        {t('equipment.stats.range', { start: formatTime(stats.startTime), end: formatTime(stats.endTime) })}
      </Typography.Text>
      <Flex gap="large" wrap align="center">
        <Statistic
          title={t('equipment.stats.outOfRange')}
          value={stats.minutesOutOfRange}
          suffix={t('equipment.stats.minutes')}
          data-testid="stats-out-of-range"
        />
        {budget ? (
          <Flex vertical align="center" data-testid="stats-budget">
            <Progress
              type="dashboard"
              size={120}
              percent={Math.round(ratio * 100)}
              strokeColor={gaugeColor(ratio)}
              status={ratio >= 1 ? 'exception' : 'normal'}
              format={(percent) => `${percent}%`}
            />
            <Typography.Text>
              {t('equipment.stats.budgetUsed', { used: budget.usedMinutes, budget: budget.budgetMinutes })}
            </Typography.Text>
            <Typography.Text type="secondary">{budgetLimit(t, budget)}</Typography.Text>
          </Flex>
        ) : (
          <Typography.Text type="secondary" data-testid="stats-no-budget">
            {t('equipment.stats.noBudget')}
          </Typography.Text>
        )}
      </Flex>
      <Table
        size="small"
        rowKey="sensorId"
        pagination={false}
        scroll={{ x: 'max-content' }}
        dataSource={stats.sensors}
        locale={{ emptyText: t('equipment.stats.noSensors') }}
        columns={[
          // A sensor's default name ("Temperature 1") is stored in English: shown in the reader's language.
          { title: t('equipment.stats.sensor'), key: 'name', render: (_, s) => sensorName(t, s.name) },
          {
            title: t('equipment.stats.mkt'),
            key: 'mkt',
            render: (_, s) => (
              <span data-testid={`stats-mkt-${s.sensorId}`}>{formatNumber(s.mkt, s.unit)}</span>
            ),
          },
          { title: t('equipment.stats.min'), key: 'min', render: (_, s) => formatNumber(s.min, s.unit) },
          { title: t('equipment.stats.max'), key: 'max', render: (_, s) => formatNumber(s.max, s.unit) },
          { title: t('equipment.stats.mean'), key: 'mean', render: (_, s) => formatNumber(s.mean, s.unit) },
          { title: t('equipment.stats.count'), dataIndex: 'count', key: 'count' },
        ]}
      />
    </Flex>
  );
}

function budgetLimit(t: TFunction, budget: NonNullable<EquipmentStats['budget']>) {
  const hasMin = typeof budget.min === 'number';
  const hasMax = typeof budget.max === 'number';
  if (hasMin && hasMax) return t('equipment.stats.limitBetween', { min: budget.min, max: budget.max });
  if (hasMax) return t('equipment.stats.limitAbove', { max: budget.max });
  return t('equipment.stats.limitBelow', { min: budget.min });
}

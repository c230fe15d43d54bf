import { STATISTICS_MAX_DAYS, type Statistics, type StatisticsDepartment } from '@coldchain/contract';
import { App, Card, DatePicker, Flex, Radio, TreeSelect, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { customPeriod, type Period, PRESETS, type Preset, presetPeriod, withinMaxSpan } from '../period';

type TreeOption = { value: string; title: string; children?: TreeOption[] };

/** The departments of the answer as a tree, for the filter (the caller's own and below). */
function departmentTree(list: StatisticsDepartment[]): TreeOption[] {
  const byParent = new Map<string | null, StatisticsDepartment[]>();
  const ids = new Set(list.map((d) => d.id));
  for (const d of list) {
    const parent = d.parentId && ids.has(d.parentId) ? d.parentId : null;
    byParent.set(parent, [...(byParent.get(parent) ?? []), d]);
  }
  const build = (parent: string | null): TreeOption[] =>
    (byParent.get(parent) ?? []).map((d) => {
      const children = build(d.id);
      return { value: d.id, title: d.name, ...(children.length ? { children } : {}) };
    });
  return build(null);
}

interface Props {
  preset: Preset;
  period: Period;
  departmentId: string | undefined;
  timeZone: string;
  /** The last answer: its departments fill the filter, its bucket is said beside it. */
  statistics: Statistics | undefined;
  onPreset: (preset: Preset, period: Period | null) => void;
  onPeriod: (period: Period) => void;
  onDepartment: (departmentId: string | undefined) => void;
}

/** Period presets (a custom range of whole days, at most 366) and the department filter. */
export function StatisticsFilters({
  preset,
  period,
  departmentId,
  timeZone,
  statistics: s,
  onPreset,
  onPeriod,
  onDepartment,
}: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const choosePreset = (next: Preset) => onPreset(next, next === 'custom' ? null : presetPeriod(next));
  return (
    <Card style={{ marginBottom: 16 }}>
      <Flex gap={12} wrap align="center">
        {/* Buttons rather than a segmented control: they wrap on a phone instead of scrolling. */}
        <Radio.Group
          optionType="button"
          value={preset}
          onChange={(event) => choosePreset(event.target.value as Preset)}
          options={PRESETS.map((p) => ({ value: p, label: t(`statistics.period.${p}`) }))}
          aria-label={t('statistics.period.label')}
          data-testid="statistics-preset"
          style={{ display: 'flex', flexWrap: 'wrap', rowGap: 8 }}
        />
        {preset === 'custom' && (
          <DatePicker.RangePicker
            aria-label={t('statistics.period.label')}
            data-testid="statistics-range"
            allowClear={false}
            value={[dayjs(period.startTime), dayjs(period.endTime - 1)]}
            disabledDate={(day) => day.isAfter(dayjs(), 'day')}
            onChange={(range) => {
              const [first, last] = range ?? [];
              if (!first || !last) return;
              const next = customPeriod(first, last);
              if (!withinMaxSpan(next)) {
                void message.error(t('statistics.period.tooLong', { days: STATISTICS_MAX_DAYS }));
                return;
              }
              onPeriod(next);
            }}
          />
        )}
        <TreeSelect
          allowClear
          showSearch
          treeDefaultExpandAll
          treeNodeFilterProp="title"
          value={departmentId}
          onChange={(value?: string) => onDepartment(value || undefined)}
          treeData={departmentTree(s?.departments ?? [])}
          loading={!s}
          placeholder={t('statistics.department.all')}
          aria-label={t('statistics.department.label')}
          data-testid="statistics-department"
          style={{ minWidth: 200, maxWidth: '100%' }}
        />
        <Typography.Text type="secondary" data-testid="statistics-bucket">
          {s ? t(s.bucket === 'hour' ? 'statistics.period.perHour' : 'statistics.period.perDay') : ''}
          {s ? ` · ${t('statistics.period.zone', { zone: timeZone })}` : ''}
        </Typography.Text>
      </Flex>
    </Card>
  );
}

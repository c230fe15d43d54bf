import type { Statistics } from '@coldchain/contract';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/DataTable';
import { departmentLabel, formatMinutes } from '../chart-options';

const percent = (ratio: number | null) => (ratio === null ? '-' : `${Math.round(ratio * 1000) / 10}%`);

/** The resolve-time figures under the chart: the whole period in one line, for reading aloud too. */
export function ResolveTimeFooter({ statistics }: { statistics: Statistics }) {
  const { t } = useTranslation();
  const o = statistics.resolveTime!.overall;
  const minutes = (v: number | null) => formatMinutes(t, v);
  return (
    <Typography.Paragraph
      type="secondary"
      style={{ marginTop: 8, marginBottom: 0 }}
      data-testid="statistics-resolve-summary"
    >
      {t('statistics.chart.resolveSummary', {
        resolved: o.resolved,
        median: minutes(o.medianMinutes),
        p90: minutes(o.p90Minutes),
        worst: minutes(o.worstMinutes),
        open: o.open,
      })}
    </Typography.Paragraph>
  );
}

/** What availability means, the whole figure, and the least available devices. */
export function AvailabilityFooter({ statistics }: { statistics: Statistics }) {
  const { t } = useTranslation();
  const a = statistics.availability!;
  return (
    <>
      <Typography.Paragraph
        type="secondary"
        style={{ marginTop: 8 }}
        data-testid="statistics-availability-summary"
      >
        {t('statistics.chart.availabilitySummary', {
          ratio: percent(a.overall.ratio),
          devices: a.overall.devices,
        })}
        {' — '}
        {t('statistics.chart.availabilityHint')}
      </Typography.Paragraph>
      {a.worst.length > 0 && (
        // DataTable: when it scrolls sideways, the region is a tab stop (axe: scrollable-region-focusable).
        <DataTable
          size="small"
          rowKey="deviceId"
          pagination={false}
          title={() => t('statistics.chart.worstDevices')}
          dataSource={a.worst}
          data-testid="statistics-worst-devices"
          columns={[
            { title: t('statistics.chart.serial'), dataIndex: 'serial' },
            { title: t('statistics.chart.deviceName'), dataIndex: 'name' },
            {
              title: t('statistics.department.label'),
              dataIndex: 'departmentId',
              render: (id: string | null) => departmentLabel(t, statistics.departments, id),
            },
            {
              title: t('statistics.chart.availabilityShare'),
              dataIndex: 'ratio',
              render: percent,
              align: 'right',
            },
          ]}
        />
      )}
    </>
  );
}

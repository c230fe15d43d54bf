import type { OperationFigures } from '@coldchain/contract';
import { Card, Col, Progress, Row, Statistic, Table, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatInstant } from './format';

/** 0.9734 -> "97.3%"; null -> "n/a". */
export function percent(ratio: number | null, t: TFunction): string {
  return ratio === null
    ? t('operationReports.view.notApplicable')
    : `${(Math.round(ratio * 1000) / 10).toFixed(1)}%`;
}

/** A duration in ms as "2 h 05 min"; under an hour "45 min". */
export function resolveTime(ms: number | null, t: TFunction): string {
  if (ms === null) return t('operationReports.view.notApplicable');
  const minutes = Math.round(ms / 60_000);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h
    ? t('operationReports.view.hoursMinutes', { h, m: String(m).padStart(2, '0') })
    : t('operationReports.view.minutes', { m });
}

const LEVEL_COLORS = ['#faad14', '#fa8c16', '#f5222d'];

/** Alarms by type as stacked horizontal bars (one per type, a segment per level). */
function AlarmBars({ figures }: { figures: OperationFigures }) {
  const { t } = useTranslation();
  const most = Math.max(1, ...figures.alarms.byType.map((r) => r.total));
  return (
    <ul data-testid="alarm-bars" style={{ listStyle: 'none', padding: 0, margin: '0 0 12px' }}>
      {figures.alarms.byType.map((row) => (
        <li
          key={row.alarmType}
          style={{ display: 'flex', alignItems: 'center', gap: 8, marginBottom: 6 }}
          aria-label={`${t(`alarms.type.${row.alarmType}`, { defaultValue: row.alarmType })}: ${row.total}`}
        >
          <span
            style={{ flex: '0 0 40%', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
          >
            {t(`alarms.type.${row.alarmType}`, { defaultValue: row.alarmType })}
          </span>
          <span style={{ flex: 1, display: 'flex', height: 12, background: '#f0f0f0', borderRadius: 2 }}>
            {[row.level1, row.level2, row.level3].map((n, i) =>
              n ? (
                <span
                  // biome-ignore lint/suspicious/noArrayIndexKey: the three levels are fixed
                  key={i}
                  style={{ width: `${(n / most) * 100}%`, background: LEVEL_COLORS[i] }}
                  title={`${t('operationReports.view.level', { level: i + 1 })}: ${n}`}
                />
              ) : null,
            )}
          </span>
          <span style={{ flex: '0 0 32px', textAlign: 'right' }}>{row.total}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * What one operation report says, as the PDF prints it: devices and availability, alarms by type
 * and level, time to resolve, unresolved alarms, excursion budgets and credits.
 */
export function ReportView({ figures }: { figures: OperationFigures }) {
  const { t } = useTranslation();
  const at = (ms: number) => formatInstant(ms, figures.timeZone);
  const none = <Typography.Text type="secondary">{t('operationReports.view.none')}</Typography.Text>;
  const levels = [1, 2, 3].map((level) => ({
    title: t('operationReports.view.level', { level }),
    key: `level${level}`,
    dataIndex: `level${level}`,
    align: 'right' as const,
  }));
  const more = figures.unresolved.count - figures.unresolved.list.length;
  return (
    <div data-testid="report-view">
      <Typography.Paragraph type="secondary">
        {t('operationReports.view.generated', { time: at(figures.generatedAt), zone: figures.timeZone })}
      </Typography.Paragraph>
      <Row gutter={[12, 12]}>
        <Col xs={12} md={6}>
          <Card size="small">
            <Statistic title={t('operationReports.view.total')} value={figures.devices.total} />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card size="small">
            <Statistic title={t('operationReports.view.online')} value={figures.devices.online} />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card size="small" data-testid="view-availability">
            <Statistic
              title={t('operationReports.view.availability')}
              value={percent(figures.availability.ratio, t)}
            />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card size="small">
            <Statistic title={t('operationReports.view.alarmTotal')} value={figures.alarms.total} />
          </Card>
        </Col>
      </Row>
      <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
        {t('operationReports.view.availabilityNote', {
          covered: figures.availability.coveredHours,
          expected: figures.availability.expectedHours,
        })}
      </Typography.Paragraph>

      {figures.availability.lowest.some((d) => d.ratio !== null && d.ratio < 1) && (
        <>
          <Typography.Text strong>{t('operationReports.view.lowest')}</Typography.Text>
          <Table
            size="small"
            pagination={false}
            rowKey="deviceId"
            scroll={{ x: 'max-content' }}
            dataSource={figures.availability.lowest
              .filter((d) => d.ratio !== null && d.ratio < 1)
              .slice(0, 5)}
            columns={[
              { title: t('operationReports.view.device'), dataIndex: 'name', key: 'name' },
              { title: t('operationReports.view.serial'), dataIndex: 'serial', key: 'serial' },
              {
                title: t('operationReports.view.availability'),
                key: 'ratio',
                align: 'right',
                render: (_, d) => percent(d.ratio, t),
              },
            ]}
            data-testid="view-lowest"
            style={{ marginBottom: 16 }}
          />
        </>
      )}

      <Typography.Title level={4}>{t('operationReports.view.alarms')}</Typography.Title>
      {figures.alarms.byType.length ? (
        <>
          <AlarmBars figures={figures} />
          <Table
            size="small"
            pagination={false}
            rowKey="alarmType"
            scroll={{ x: 'max-content' }}
            dataSource={figures.alarms.byType}
            columns={[
              {
                title: t('operationReports.view.alarmType'),
                key: 'type',
                render: (_, r) => t(`alarms.type.${r.alarmType}`, { defaultValue: r.alarmType }),
              },
              ...levels,
              { title: t('operationReports.view.total'), dataIndex: 'total', key: 'total', align: 'right' },
            ]}
            data-testid="view-alarm-table"
          />
        </>
      ) : (
        none
      )}

      <Typography.Title level={4}>{t('operationReports.view.resolution')}</Typography.Title>
      <Row gutter={[12, 12]} data-testid="view-resolution">
        <Col xs={8}>
          <Statistic title={t('operationReports.view.resolved')} value={figures.resolution.resolved} />
        </Col>
        <Col xs={8}>
          <Statistic
            title={t('operationReports.view.median')}
            value={resolveTime(figures.resolution.medianMs, t)}
          />
        </Col>
        <Col xs={8}>
          <Statistic
            title={t('operationReports.view.worst')}
            value={resolveTime(figures.resolution.worstMs, t)}
          />
        </Col>
      </Row>

      <Typography.Title level={4}>
        {t('operationReports.view.unresolved')} ({figures.unresolved.count})
      </Typography.Title>
      {figures.unresolved.list.length ? (
        <Table
          size="small"
          pagination={false}
          rowKey="alarmId"
          scroll={{ x: 'max-content' }}
          dataSource={figures.unresolved.list}
          columns={[
            { title: t('operationReports.view.alarmTime'), key: 'at', render: (_, a) => at(a.alarmTime) },
            { title: t('operationReports.view.device'), dataIndex: 'deviceName', key: 'device' },
            { title: t('operationReports.view.serial'), dataIndex: 'serial', key: 'serial' },
            {
              title: t('operationReports.view.alarmType'),
              key: 'type',
              render: (_, a) => t(`alarms.type.${a.alarmType}`, { defaultValue: a.alarmType }),
            },
            {
              title: t('operationReports.view.level', { level: '' }).trim(),
              dataIndex: 'level',
              key: 'level',
            },
          ]}
          data-testid="view-unresolved"
        />
      ) : (
        none
      )}
      {more > 0 && (
        <Typography.Paragraph>{t('operationReports.view.more', { count: more })}</Typography.Paragraph>
      )}

      <Typography.Title level={4}>{t('operationReports.view.equipment')}</Typography.Title>
      {figures.equipment.length ? (
        <div data-testid="view-equipment">
          {figures.equipment.map((e) => (
            <div key={e.equipmentId} style={{ marginBottom: 8 }}>
              <Typography.Text>
                {e.name} ({e.serial}): {e.usedMinutes} / {e.budgetMinutes} min
              </Typography.Text>
              <Progress
                percent={Math.round(e.ratio * 1000) / 10}
                status={e.ratio > 1 ? 'exception' : 'normal'}
                format={() => percent(e.ratio, t)}
                aria-label={`${e.name}: ${percent(e.ratio, t)}`}
              />
            </div>
          ))}
        </div>
      ) : (
        none
      )}

      <Typography.Title level={4}>{t('operationReports.view.credits')}</Typography.Title>
      <Statistic title={t('operationReports.view.spent')} value={figures.credits.spent} />
      {figures.credits.byChannel.length > 0 && (
        <Table
          size="small"
          pagination={false}
          rowKey="channel"
          dataSource={figures.credits.byChannel}
          columns={[
            { title: t('operationReports.view.channel'), dataIndex: 'channel', key: 'channel' },
            { title: t('operationReports.view.spent'), dataIndex: 'spent', key: 'spent', align: 'right' },
          ]}
          data-testid="view-credits"
        />
      )}
    </div>
  );
}

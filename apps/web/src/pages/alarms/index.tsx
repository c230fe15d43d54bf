import { ExportOutlined } from '@ant-design/icons';
import { type AlarmRecordView, AlarmTypes, type PageAlarmsRequest } from '@coldchain/contract';
import { Button, Card, DatePicker, Flex, Select, type TableColumnsType, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { DataTable } from '../../components/DataTable';
import { sensorName } from '../../components/labels';
import { useHasAuthTag } from '../../session/queries';
import { useCanExport } from '../../signature/SignPasswordField';
import { formatTime } from '../devices/format';
import { LevelTag, ResolverName, ResolveStateTag } from './components';
import { ExportAlarmsModal } from './ExportAlarmsModal';
import { alarmDetailUrl, contentIn, RESOLVE_STATES } from './format';
import { useAlarmPage } from './queries';

const PAGE_SIZE = 20;
type Row = AlarmRecordView & { resolverName?: string | null };

/** Alarm records (spec section 3): filters by resolve state, type and time; a row opens the detail. */
export default function AlarmInfoPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [pageNum, setPageNum] = useState(1);
  const [resolveState, setResolveState] = useState<number | undefined>();
  const [alarmType, setAlarmType] = useState<PageAlarmsRequest['alarmType']>();
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(null);
  const [exporting, setExporting] = useState(false);
  // The export is a view of the records: the same right as the list (alarm:view).
  const canView = useHasAuthTag('alarm:view');
  // The member's export flag, set by the company administrator.
  const canExport = useCanExport();

  const body: PageAlarmsRequest = {
    pageNum,
    pageSize: PAGE_SIZE,
    ...(resolveState ? { resolveState } : {}),
    ...(alarmType ? { alarmType } : {}),
    ...(range ? { startTime: range[0].valueOf(), endTime: range[1].valueOf() } : {}),
  };
  const page = useAlarmPage(body);

  const columns: TableColumnsType<Row> = [
    {
      title: t('alarms.column.type'),
      dataIndex: 'alarmType',
      key: 'alarmType',
      render: (type: string) => (
        <span data-testid="alarm-type">{t(`alarms.type.${type}`, { defaultValue: type })}</span>
      ),
    },
    {
      title: t('alarms.column.level'),
      dataIndex: 'level',
      key: 'level',
      render: (level: number) => <LevelTag level={level} />,
    },
    {
      title: t('alarms.column.device'),
      key: 'device',
      // Widths that wrap the two long texts (the table is as wide as its content otherwise), so
      // the content still shows beside the pinned state and actions at 1366 px (issue 20).
      width: 160,
      render: (_, r) => (
        <span data-testid="alarm-device">
          {r.deviceName} ({r.deviceSerial})
        </span>
      ),
    },
    {
      title: t('alarms.column.channel'),
      dataIndex: 'channelName',
      key: 'channelName',
      render: (name: string | null) => sensorName(t, name),
    },
    {
      title: t('alarms.column.time'),
      dataIndex: 'alarmTime',
      key: 'alarmTime',
      render: (ts: number) => formatTime(ts),
    },
    {
      title: t('alarms.column.content'),
      key: 'content',
      width: 170,
      render: (_, r) => <span data-testid="alarm-content">{contentIn(i18n.language, r.content)}</span>,
    },
    { title: t('alarms.column.count'), dataIndex: 'count', key: 'count' },
    {
      title: t('alarms.column.resolveState'),
      dataIndex: 'resolveState',
      key: 'resolveState',
      render: (state: number) => <ResolveStateTag state={state} />,
    },
    {
      title: t('alarms.column.resolver'),
      key: 'resolver',
      render: (_, r) => <ResolverName id={r.resolverId} name={r.resolverName} />,
    },
    {
      title: t('alarms.column.resolveTime'),
      dataIndex: 'resolveTime',
      key: 'resolveTime',
      render: (ts: number | null) => formatTime(ts),
    },
    {
      // The row opens the detail on a click; the link is the way there by keyboard.
      title: t('alarms.column.actions'),
      key: 'actions',
      render: (_, r) => (
        <Link to={alarmDetailUrl(r.id)} onClick={(e) => e.stopPropagation()} data-testid="alarm-detail-link">
          {t('alarms.column.open')}
        </Link>
      ),
    },
  ];

  return (
    <div>
      <Typography.Title level={2} data-testid="page-title">
        {t('menu.alarmInfo')}
      </Typography.Title>
      <Card>
        <Flex gap="middle" wrap style={{ marginBottom: 16 }}>
          <Select<number>
            allowClear
            placeholder={t('alarms.filter.resolveState')}
            aria-label={t('alarms.filter.resolveState')}
            style={{ minWidth: 160 }}
            value={resolveState}
            onChange={(value) => {
              setResolveState(value);
              setPageNum(1);
            }}
            options={RESOLVE_STATES.map((s) => ({ value: s, label: t(`alarms.resolveState.${s}`) }))}
            data-testid="alarm-filter-state"
          />
          <Select<string>
            allowClear
            placeholder={t('alarms.filter.alarmType')}
            aria-label={t('alarms.filter.alarmType')}
            style={{ minWidth: 200 }}
            value={alarmType}
            onChange={(value) => {
              setAlarmType(value as PageAlarmsRequest['alarmType']);
              setPageNum(1);
            }}
            options={AlarmTypes.map((type) => ({ value: type, label: t(`alarms.type.${type}`) }))}
            data-testid="alarm-filter-type"
          />
          <DatePicker.RangePicker
            showTime
            format="YYYY-MM-DD HH:mm:ss"
            placeholder={[t('alarms.filter.start'), t('alarms.filter.end')]}
            value={range}
            onChange={(value) => {
              setRange(value?.[0] && value[1] ? [value[0], value[1]] : null);
              setPageNum(1);
            }}
            data-testid="alarm-filter-time"
          />
          {canView && canExport && (
            <Button
              icon={<ExportOutlined />}
              onClick={() => setExporting(true)}
              data-testid="alarm-export-open"
              style={{ marginInlineStart: 'auto' }}
            >
              {t('alarms.export.open')}
            </Button>
          )}
        </Flex>
        <DataTable<Row>
          rowKey="id"
          columns={columns}
          keyColumns={['resolveState']}
          dataSource={page.data?.list ?? []}
          loading={page.isFetching}
          onRow={(r) => ({
            onClick: () => navigate(alarmDetailUrl(r.id)),
            style: { cursor: 'pointer' },
            'data-testid': `alarm-row-${r.id}`,
            'data-serial': r.deviceSerial,
          })}
          pagination={{
            current: pageNum,
            pageSize: PAGE_SIZE,
            total: page.data?.total ?? 0,
            showSizeChanger: false,
            showTotal: (count) => t('alarms.total', { count }),
            onChange: setPageNum,
          }}
        />
      </Card>
      <ExportAlarmsModal
        open={exporting}
        filters={{
          ...(resolveState ? { resolveState } : {}),
          ...(alarmType ? { alarmType } : {}),
        }}
        initialPeriod={range}
        onClose={() => setExporting(false)}
      />
    </div>
  );
}

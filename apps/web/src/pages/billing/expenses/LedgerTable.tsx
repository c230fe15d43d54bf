import {
  AlarmChannels,
  type CreditLedgerKind,
  CreditLedgerKinds,
  type CreditLedgerRowView,
  type PageCreditLedgerRequest,
} from '@coldchain/contract';
import { Card, Flex, Select, type TableColumnsType, Tag, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DataTable } from '../../../components/DataTable';
import { alarmDetailUrl } from '../../alarms/format';
import { ExportButton } from '../../audit/ExportButton';
import { PeriodFilter } from '../../audit/PeriodFilter';
import { formatTime } from '../../devices/format';
import { useCreditLedger, useExportLedger } from './queries';

const PAGE_SIZE = 20;
const KIND_COLORS: Record<CreditLedgerKind, string> = { grant: 'green', debit: 'blue', refund: 'gold' };
type Channel = (typeof AlarmChannels)[number];

/**
 * Every change of the balance, newest first (API.md "Credits and the ledger"): top-ups and grants
 * with their reason, and each message with the alarm it paid for. Filters and the export share
 * the same selection.
 */
export function LedgerTable() {
  const { t } = useTranslation();
  const [pageNum, setPageNum] = useState(1);
  const [kind, setKind] = useState<CreditLedgerKind | undefined>();
  const [channel, setChannel] = useState<Channel | undefined>();
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(null);
  const exportLedger = useExportLedger();
  const filters = { ...(kind ? { kind } : {}), ...(channel ? { channel } : {}) };
  const body: PageCreditLedgerRequest = {
    pageNum,
    pageSize: PAGE_SIZE,
    ...filters,
    ...(range ? { startTime: range[0].valueOf(), endTime: range[1].valueOf() } : {}),
  };
  const page = useCreditLedger(body);
  const filtered =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPageNum(1);
    };

  const columns: TableColumnsType<CreditLedgerRowView> = [
    { title: t('credits.ledger.time'), key: 'time', render: (_, r) => formatTime(r.createTime) },
    {
      title: t('credits.ledger.kind'),
      key: 'kind',
      render: (_, r) => (
        <Tag color={KIND_COLORS[r.kind]} data-testid="ledger-kind">
          {t(`credits.kind.${r.kind}`)}
        </Tag>
      ),
    },
    {
      title: t('credits.ledger.amount'),
      key: 'amount',
      align: 'right',
      render: (_, r) => (
        <Typography.Text type={r.amount < 0 ? undefined : 'success'} data-testid="ledger-amount">
          {r.amount > 0 ? `+${r.amount}` : r.amount}
        </Typography.Text>
      ),
    },
    {
      title: t('credits.ledger.channel'),
      key: 'channel',
      render: (_, r) => (r.channel ? t(`credits.channel.${r.channel}`, { defaultValue: r.channel }) : '-'),
    },
    {
      title: t('credits.ledger.alarm'),
      key: 'alarm',
      render: (_, r) =>
        r.alarm ? (
          <Flex vertical>
            <span>
              {t('credits.ledger.alarmOf', {
                type: t(`alarms.type.${r.alarm.alarmType}`, { defaultValue: r.alarm.alarmType }),
                device: r.alarm.deviceName,
              })}
            </span>
            <Link to={alarmDetailUrl(r.alarm.id)} data-testid="ledger-alarm-link">
              {t('credits.ledger.openAlarm', { id: r.alarm.id })}
            </Link>
          </Flex>
        ) : (
          '-'
        ),
    },
    {
      title: t('credits.ledger.reason'),
      key: 'reason',
      render: (_, r) =>
        r.order?.orderNo ?? (r.reason ? t(`credits.reason.${r.reason}`, { defaultValue: r.reason }) : '-'),
    },
  ];

  return (
    <Card title={t('credits.ledger.title')} data-testid="credit-ledger">
      <Flex gap="middle" wrap style={{ marginBottom: 16 }}>
        <PeriodFilter value={range} onChange={filtered(setRange)} testId="ledger-filter-time" />
        <Select<CreditLedgerKind>
          allowClear
          placeholder={t('credits.ledger.allKinds')}
          aria-label={t('credits.ledger.kind')}
          style={{ minWidth: 180 }}
          value={kind}
          onChange={filtered(setKind)}
          options={CreditLedgerKinds.map((k) => ({ value: k, label: t(`credits.kind.${k}`) }))}
          data-testid="ledger-filter-kind"
        />
        <Select<Channel>
          allowClear
          placeholder={t('credits.ledger.allChannels')}
          aria-label={t('credits.ledger.channel')}
          style={{ minWidth: 160 }}
          value={channel}
          onChange={filtered(setChannel)}
          options={AlarmChannels.map((c) => ({ value: c, label: t(`credits.channel.${c}`) }))}
          data-testid="ledger-filter-channel"
        />
        <ExportButton
          testId="ledger-export"
          what={t('credits.ledger.fileName')}
          initialPeriod={range}
          pending={exportLedger.isPending}
          onExport={(period) => exportLedger.mutateAsync({ ...period, ...filters })}
        />
      </Flex>
      <DataTable<CreditLedgerRowView>
        rowKey="id"
        size="small"
        columns={columns}
        loading={page.isFetching}
        dataSource={page.data?.list ?? []}
        locale={{ emptyText: t('credits.ledger.empty') }}
        onRow={(row) => ({ 'data-testid': `ledger-row-${row.id}` }) as React.HTMLAttributes<HTMLElement>}
        pagination={{
          current: pageNum,
          pageSize: PAGE_SIZE,
          total: page.data?.total ?? 0,
          showSizeChanger: false,
          showTotal: (count) => t('credits.ledger.total', { count }),
          onChange: setPageNum,
        }}
      />
    </Card>
  );
}

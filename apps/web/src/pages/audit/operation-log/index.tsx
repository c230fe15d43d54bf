import { auditActionTitles, type OperationLogEntry, type PageOperationLogRequest } from '@coldchain/contract';
import {
  Button,
  Card,
  DatePicker,
  Flex,
  Input,
  Select,
  Table,
  type TableColumnsType,
  Typography,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHasAuthTag } from '../../../session/queries';
import { formatTime } from '../../devices/format';
import { ExportModal } from '../ExportModal';
import { actionTitle, targetTitle } from '../format';
import { AUDIT_PAGE_SIZE, auditPagination } from '../pagination';
import { useExportOperations, useOperationLogPage, useOperatorOptions } from '../queries';
import { ValueDiff } from '../ValueDiff';

/**
 * Operation log: every change in the company, who made it, when, from which IP, with old and
 * new values and the reason where one was asked. A row expands to the full field-by-field change.
 */
export default function OperationLogPage() {
  const { t, i18n } = useTranslation();
  const canExport = useHasAuthTag('audit:export');
  const [pageNum, setPageNum] = useState(1);
  const [action, setAction] = useState<string | undefined>();
  const [userId, setUserId] = useState<string | undefined>();
  const operators = useOperatorOptions();
  const [target, setTarget] = useState('');
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(null);
  const [exporting, setExporting] = useState(false);
  const exportOperations = useExportOperations();

  const filters = {
    ...(action ? { action } : {}),
    ...(userId ? { userId } : {}),
    ...(target ? { target } : {}),
  };
  const body: PageOperationLogRequest = {
    pageNum,
    pageSize: AUDIT_PAGE_SIZE,
    ...filters,
    ...(range ? { startTime: range[0].valueOf(), endTime: range[1].valueOf() } : {}),
  };
  const page = useOperationLogPage(body);

  const columns: TableColumnsType<OperationLogEntry> = [
    { title: t('audit.operation.seq'), dataIndex: 'seq', key: 'seq' },
    {
      title: t('audit.operation.operator'),
      key: 'operator',
      render: (_, r) => (r.userId === null ? t('audit.operation.platform') : r.userName || r.userId),
    },
    {
      title: t('audit.operation.action'),
      key: 'action',
      render: (_, r) => <span data-testid="operation-action">{actionTitle(r.action, i18n.language)}</span>,
    },
    {
      title: t('audit.operation.target'),
      key: 'target',
      render: (_, r) => `${targetTitle(r.targetType, i18n.language)} ${r.targetId}`,
    },
    { title: t('audit.operation.time'), key: 'time', render: (_, r) => formatTime(r.time) },
    {
      title: t('audit.operation.change'),
      key: 'change',
      render: (_, r) => <ValueDiff before={r.before} after={r.after} limit={2} />,
    },
    {
      title: t('audit.operation.reason'),
      dataIndex: 'reason',
      key: 'reason',
      render: (v: string) => v || '-',
    },
    { title: t('audit.operation.ip'), dataIndex: 'ip', key: 'ip', render: (v: string) => v || '-' },
  ];

  return (
    <div>
      <Typography.Title level={2} data-testid="page-title">
        {t('menu.operationLog')}
      </Typography.Title>
      <Card>
        <Flex gap="middle" wrap style={{ marginBottom: 16 }}>
          <DatePicker.RangePicker
            showTime
            format="YYYY-MM-DD HH:mm:ss"
            placeholder={[t('audit.filter.start'), t('audit.filter.end')]}
            value={range}
            onChange={(value) => {
              setRange(value?.[0] && value[1] ? [value[0], value[1]] : null);
              setPageNum(1);
            }}
            data-testid="operation-filter-time"
          />
          <Select<string>
            allowClear
            showSearch
            optionFilterProp="label"
            placeholder={t('audit.filter.action')}
            style={{ minWidth: 220 }}
            value={action}
            onChange={(value) => {
              setAction(value);
              setPageNum(1);
            }}
            options={Object.keys(auditActionTitles).map((code) => ({
              value: code,
              label: actionTitle(code, i18n.language),
            }))}
            data-testid="operation-filter-action"
          />
          <Select<string>
            allowClear
            showSearch
            optionFilterProp="label"
            placeholder={t('audit.filter.operator')}
            style={{ minWidth: 180 }}
            value={userId}
            onChange={(value) => {
              setUserId(value);
              setPageNum(1);
            }}
            options={(operators.data ?? []).map((m) => ({ value: m.id, label: m.name }))}
            data-testid="operation-filter-operator"
          />
          <Input.Search
            allowClear
            placeholder={t('audit.filter.target')}
            style={{ width: 200 }}
            onSearch={(value) => {
              setTarget(value.trim());
              setPageNum(1);
            }}
            data-testid="operation-filter-target"
          />
          {canExport ? (
            <Button onClick={() => setExporting(true)} data-testid="operation-export">
              {t('audit.export.button')}
            </Button>
          ) : null}
        </Flex>
        <Table<OperationLogEntry>
          rowKey="id"
          columns={columns}
          dataSource={page.data?.list ?? []}
          loading={page.isFetching}
          scroll={{ x: 'max-content' }}
          onRow={(r) => ({ className: 'audit-row', 'data-testid': `operation-row-${r.seq}` })}
          expandable={{
            expandedRowRender: (r) => (
              <div data-testid={`operation-detail-${r.seq}`}>
                <ValueDiff before={r.before} after={r.after} />
              </div>
            ),
          }}
          pagination={auditPagination(t, pageNum, page.data?.total ?? 0, setPageNum)}
        />
      </Card>
      <ExportModal
        open={exporting}
        what={t('menu.operationLog')}
        initialPeriod={range}
        pending={exportOperations.isPending}
        onExport={(period) => exportOperations.mutateAsync({ ...period, ...filters })}
        onClose={() => setExporting(false)}
      />
    </div>
  );
}

import { auditActionTitles, type OperationLogEntry, type PageOperationLogRequest } from '@coldchain/contract';
import { Card, Flex, Input, Select, type TableColumnsType, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHasAuthTag } from '../../../session/queries';
import { formatTime } from '../../devices/format';
import { AuditTable } from '../AuditTable';
import { ExportButton } from '../ExportButton';
import { actionTitle, targetTitle } from '../format';
import { operationSentence } from '../operation-sentence';
import { PeriodFilter } from '../PeriodFilter';
import { AUDIT_PAGE_SIZE } from '../pagination';
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
      // The sentence says what happened; the row expands to every recorded field (ValueDiff).
      title: t('audit.operation.what'),
      key: 'what',
      render: (_, r) => (
        <span data-testid="operation-sentence">{operationSentence(t, i18n.language, r)}</span>
      ),
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
          <PeriodFilter
            value={range}
            onChange={(period) => {
              setRange(period);
              setPageNum(1);
            }}
            testId="operation-filter-time"
          />
          <Select<string>
            allowClear
            showSearch
            optionFilterProp="label"
            placeholder={t('audit.filter.action')}
            aria-label={t('audit.filter.action')}
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
            aria-label={t('audit.filter.operator')}
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
            <ExportButton
              testId="operation-export"
              what={t('menu.operationLog')}
              initialPeriod={range}
              pending={exportOperations.isPending}
              onExport={(period) => exportOperations.mutateAsync({ ...period, ...filters })}
            />
          ) : null}
        </Flex>
        <AuditTable<OperationLogEntry>
          columns={columns}
          page={page}
          pageNum={pageNum}
          onPageChange={setPageNum}
          rowTestId={(r) => `operation-row-${r.seq}`}
          expandable={{
            expandedRowRender: (r) => (
              <div data-testid={`operation-detail-${r.seq}`}>
                <ValueDiff before={r.before} after={r.after} />
              </div>
            ),
          }}
        />
      </Card>
    </div>
  );
}

import type { LoginLogEntry, PageLoginLogRequest } from '@coldchain/contract';
import { Card, Flex, Input, Segmented, Select, type TableColumnsType, Tag, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHasAuthTag } from '../../../session/queries';
import { formatTime } from '../../devices/format';
import { AuditTable } from '../AuditTable';
import { ExportButton } from '../ExportButton';
import { methodName, platformName, reasonText } from '../format';
import { PeriodFilter } from '../PeriodFilter';
import { AUDIT_PAGE_SIZE } from '../pagination';
import { type LoginScope, useExportLogins, useLoginLogPage } from '../queries';

/**
 * Login log (spec section 3): user, platform, method, time, status, IP and location of every
 * attempt. Auditors see everyone in the company (failures included); anyone can switch to their
 * own history. Export needs a period and a format; the company-wide file needs audit:export.
 */
export default function LoginLogPage() {
  const { t } = useTranslation();
  const canAudit = useHasAuthTag('audit:view');
  const canExportAll = useHasAuthTag('audit:export');
  const [scopeChoice, setScope] = useState<LoginScope>('all');
  const scope: LoginScope = canAudit ? scopeChoice : 'mine';
  const [pageNum, setPageNum] = useState(1);
  const [account, setAccount] = useState('');
  const [status, setStatus] = useState<number | undefined>();
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(null);
  const exportLogins = useExportLogins(scope);

  const filters = {
    ...(account ? { account } : {}),
    ...(status !== undefined ? { status } : {}),
  };
  const body: PageLoginLogRequest = {
    pageNum,
    pageSize: AUDIT_PAGE_SIZE,
    ...filters,
    ...(range ? { startTime: range[0].valueOf(), endTime: range[1].valueOf() } : {}),
  };
  const page = useLoginLogPage(scope, body);
  const canExport = scope === 'mine' || canExportAll;

  const columns: TableColumnsType<LoginLogEntry> = [
    {
      title: t('audit.login.user'),
      key: 'user',
      render: (_, r) => (
        <span>
          {r.userName || '-'}
          <Typography.Text type="secondary"> {r.account}</Typography.Text>
        </span>
      ),
    },
    { title: t('audit.login.platform'), key: 'platform', render: (_, r) => platformName(t, r.platform) },
    { title: t('audit.login.method'), key: 'method', render: (_, r) => methodName(t, r.method) },
    { title: t('audit.login.time'), key: 'time', render: (_, r) => formatTime(r.time) },
    {
      title: t('audit.login.status'),
      key: 'status',
      render: (_, r) => (
        <span data-testid="login-status">
          <Tag color={r.status === 1 ? 'green' : 'red'}>
            {t(r.status === 1 ? 'audit.login.success' : 'audit.login.failure')}
          </Tag>
          {r.status === 1 ? null : reasonText(t, r.reason)}
        </span>
      ),
    },
    { title: t('audit.login.ip'), dataIndex: 'ip', key: 'ip' },
    { title: t('audit.login.location'), dataIndex: 'location', key: 'location' },
  ];

  return (
    <div>
      <Typography.Title level={2} data-testid="page-title">
        {t('menu.loginLog')}
      </Typography.Title>
      <Card>
        <Flex gap="middle" wrap style={{ marginBottom: 16 }}>
          {canAudit ? (
            <Segmented<LoginScope>
              value={scope}
              onChange={(value) => {
                setScope(value);
                setPageNum(1);
              }}
              options={[
                { value: 'all', label: t('audit.login.all') },
                { value: 'mine', label: t('audit.login.mine') },
              ]}
              data-testid="login-scope"
            />
          ) : null}
          <PeriodFilter
            value={range}
            onChange={(period) => {
              setRange(period);
              setPageNum(1);
            }}
            testId="login-filter-time"
          />
          <Input.Search
            allowClear
            placeholder={t('audit.filter.user')}
            style={{ width: 220 }}
            onSearch={(value) => {
              setAccount(value.trim());
              setPageNum(1);
            }}
            data-testid="login-filter-user"
          />
          <Select<number>
            allowClear
            placeholder={t('audit.filter.status')}
            aria-label={t('audit.filter.status')}
            style={{ minWidth: 140 }}
            value={status}
            onChange={(value) => {
              setStatus(value);
              setPageNum(1);
            }}
            options={[
              { value: 1, label: t('audit.login.success') },
              { value: 0, label: t('audit.login.failure') },
            ]}
            data-testid="login-filter-status"
          />
          {canExport ? (
            <ExportButton
              testId="login-export"
              what={t('menu.loginLog')}
              initialPeriod={range}
              pending={exportLogins.isPending}
              onExport={(period) => exportLogins.mutateAsync({ ...period, ...filters })}
            />
          ) : null}
        </Flex>
        <AuditTable<LoginLogEntry>
          columns={columns}
          page={page}
          pageNum={pageNum}
          onPageChange={setPageNum}
          rowTestId={(r) => `login-row-${r.id}`}
        />
      </Card>
    </div>
  );
}

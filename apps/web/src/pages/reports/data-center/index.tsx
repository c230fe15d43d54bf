import {
  DownloadOutlined,
  ReloadOutlined,
  SafetyCertificateOutlined,
  SearchOutlined,
} from '@ant-design/icons';
import { Limits, ReportFileKindGroups, type ReportFileView } from '@coldchain/contract';
import {
  Alert,
  Button,
  Card,
  DatePicker,
  Flex,
  Input,
  Select,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/DataTable';
import { REPORT_PATHS, useDownload, useReportFiles } from '../api';
import { formatBytes, formatTime } from '../format';
import { VerifyReportBox } from './VerifyReportBox';

const PAGE_SIZE = 20;

/** `backup.history` -> the words of its group and, for a backup, of its type. */
export function useKindLabel() {
  const { t, i18n } = useTranslation();
  return (kind: string) => {
    const [group, sub] = kind.split('.');
    const groupLabel = i18n.exists(`reports.kind.${group}`) ? t(`reports.kind.${group}`) : kind;
    if (group === 'backup' && sub && i18n.exists(`reports.type.${sub}`))
      return `${groupLabel}: ${t(`reports.type.${sub}`)}`;
    return groupLabel;
  };
}

/**
 * Data centre (`dataFiles` under `dataCenter`): every file generated for the company, filtered
 * by kind, name and period, downloadable when kept, and a box to check a printed report.
 */
export default function DataCenterPage() {
  const { t } = useTranslation();
  const kindLabel = useKindLabel();
  const [kind, setKind] = useState<string | undefined>();
  const [search, setSearch] = useState('');
  const [keyword, setKeyword] = useState('');
  const [period, setPeriod] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const [pageNum, setPageNum] = useState(1);
  const download = useDownload(REPORT_PATHS.downloadFile);

  useEffect(() => {
    const timer = setTimeout(() => {
      setKeyword(search.trim());
      setPageNum(1);
    }, Limits.searchDebounceMs);
    return () => clearTimeout(timer);
  }, [search]);

  const start = period?.[0]?.startOf('day').valueOf();
  const end = period?.[1]?.endOf('day').valueOf();
  const files = useReportFiles({
    pageNum,
    pageSize: PAGE_SIZE,
    ...(kind ? { kind } : {}),
    ...(keyword ? { keyword } : {}),
    ...(start ? { startTime: start } : {}),
    ...(end ? { endTime: end + 1 } : {}),
  });

  const columns: TableColumnsType<ReportFileView> = [
    {
      title: t('reports.field.fileName'),
      dataIndex: 'fileName',
      key: 'fileName',
      render: (name: string) => <Typography.Text style={{ wordBreak: 'break-all' }}>{name}</Typography.Text>,
    },
    { title: t('reports.field.kind'), key: 'kind', render: (_, file) => <Tag>{kindLabel(file.kind)}</Tag> },
    {
      title: t('reports.field.generatedAt'),
      key: 'generatedAt',
      render: (_, file) => formatTime(file.generatedAt),
    },
    { title: t('reports.field.generatedBy'), dataIndex: 'generatedBy', key: 'generatedBy' },
    { title: t('reports.field.size'), key: 'size', render: (_, file) => formatBytes(file.size) },
    {
      title: t('reports.field.fingerprint'),
      key: 'fingerprint',
      render: (_, file) => (
        <Typography.Text code copyable={{ text: file.fingerprint }} style={{ fontSize: 12 }}>
          {file.fingerprint.slice(0, 12)}…
        </Typography.Text>
      ),
    },
    {
      title: t('reports.common.actions'),
      key: 'actions',
      render: (_, file) =>
        file.stored ? (
          <Button
            size="small"
            icon={<DownloadOutlined />}
            loading={download.isPending && download.variables === file.id}
            onClick={() => download.mutate(file.id)}
            aria-label={t('reports.common.downloadName', { name: file.fileName })}
            data-testid={`file-download-${file.id}`}
          >
            {t('reports.common.download')}
          </Button>
        ) : (
          <Typography.Text type="secondary" data-testid={`file-not-kept-${file.id}`}>
            {t('reports.file.notKept')}
          </Typography.Text>
        ),
    },
  ];

  return (
    <div>
      <Typography.Title level={2} data-testid="page-title">
        {t('menu.dataFiles')}
      </Typography.Title>
      <Flex vertical gap="middle">
        <Card title={t('reports.verify.title')} extra={<SafetyCertificateOutlined />}>
          <VerifyReportBox />
        </Card>
        <Card>
          <Flex gap="small" wrap style={{ marginBottom: 16 }}>
            <Select
              allowClear
              value={kind}
              onChange={(next) => {
                setKind(next);
                setPageNum(1);
              }}
              placeholder={t('reports.file.allKinds')}
              options={ReportFileKindGroups.map((value) => ({ value, label: t(`reports.kind.${value}`) }))}
              style={{ minWidth: 180 }}
              aria-label={t('reports.field.kind')}
              data-testid="file-kind-filter"
            />
            <Input
              allowClear
              prefix={<SearchOutlined />}
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              placeholder={t('reports.file.searchName')}
              aria-label={t('reports.file.searchName')}
              style={{ width: 240, maxWidth: '100%' }}
              data-testid="file-search"
            />
            <DatePicker.RangePicker
              value={period}
              onChange={(next) => {
                setPeriod(next);
                setPageNum(1);
              }}
              aria-label={t('reports.field.generatedAt')}
              data-testid="file-period"
            />
          </Flex>
          {files.isError && (
            <Alert
              type="error"
              showIcon
              title={t('reports.common.loadFailed')}
              action={
                <Button size="small" icon={<ReloadOutlined />} onClick={() => files.refetch()}>
                  {t('reports.common.retry')}
                </Button>
              }
              style={{ marginBottom: 12 }}
              data-testid="files-error"
            />
          )}
          <DataTable<ReportFileView>
            rowKey="id"
            columns={columns}
            dataSource={files.data?.list ?? []}
            loading={files.isLoading}
            locale={{ emptyText: t('reports.file.empty') }}
            onRow={(file) => ({ 'data-testid': `file-row-${file.id}` }) as object}
            pagination={{
              current: pageNum,
              pageSize: PAGE_SIZE,
              total: files.data?.total ?? 0,
              showSizeChanger: false,
              hideOnSinglePage: true,
              onChange: setPageNum,
            }}
          />
        </Card>
      </Flex>
    </div>
  );
}

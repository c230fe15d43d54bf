import type { OperatorCompanyView } from '@coldchain/contract';
import { Button, Card, Input, type TableColumnsType, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/DataTable';
import { useOperatorCompanies } from '../api';
import { CompanyDrawer } from './CompanyDrawer';

const PAGE_SIZE = 20;

/** `operatorCompanies`: every company on the platform, for the supplier's account managers. */
export default function OperatorCompaniesPage() {
  const { t } = useTranslation();
  const [keyword, setKeyword] = useState('');
  const [pageNum, setPageNum] = useState(1);
  const [openId, setOpenId] = useState<string | null>(null);
  const companies = useOperatorCompanies({ pageNum, pageSize: PAGE_SIZE, ...(keyword ? { keyword } : {}) });
  const open = companies.data?.list.find((c) => c.id === openId) ?? null;

  const columns: TableColumnsType<OperatorCompanyView> = [
    { title: t('operator.company.name'), dataIndex: 'name', key: 'name' },
    {
      title: t('operator.company.services'),
      key: 'services',
      render: (_, c) => c.services.filter((s) => s.active).length,
    },
    { title: t('operator.company.credits'), dataIndex: 'credits', key: 'credits' },
    { title: t('operator.company.devices'), dataIndex: 'deviceCount', key: 'devices' },
    {
      title: t('operator.company.state'),
      key: 'state',
      render: (_, c) =>
        c.disabled ? (
          <Tag color="red">{t('operator.company.disabled')}</Tag>
        ) : (
          <Tag color="green">{t('operator.company.enabled')}</Tag>
        ),
    },
    {
      title: t('operator.actions'),
      key: 'actions',
      render: (_, c) => (
        <Button size="small" onClick={() => setOpenId(c.id)} data-testid={`company-manage-${c.id}`}>
          {t('operator.company.manage')}
        </Button>
      ),
    },
  ];

  return (
    <div>
      <Typography.Title level={2} data-testid="page-title">
        {t('menu.operatorCompanies')}
      </Typography.Title>
      <Card>
        <Input.Search
          placeholder={t('operator.company.search')}
          aria-label={t('operator.company.search')}
          onSearch={(value) => {
            setKeyword(value.trim());
            setPageNum(1);
          }}
          style={{ maxWidth: 320, marginBottom: 16 }}
          data-testid="company-search"
        />
        <DataTable<OperatorCompanyView>
          rowKey="id"
          columns={columns}
          keyColumns={['state']}
          dataSource={companies.data?.list ?? []}
          loading={companies.isFetching}
          onRow={(c) => ({ 'data-testid': `company-row-${c.id}` }) as object}
          pagination={{
            current: pageNum,
            pageSize: PAGE_SIZE,
            total: companies.data?.total ?? 0,
            hideOnSinglePage: true,
            showSizeChanger: false,
            onChange: setPageNum,
          }}
        />
      </Card>
      {open && <CompanyDrawer company={open} onClose={() => setOpenId(null)} />}
    </div>
  );
}

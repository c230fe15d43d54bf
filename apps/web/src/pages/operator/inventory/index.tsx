import type { InventoryRowView } from '@coldchain/contract';
import { Card, Flex, Input, Select, type TableColumnsType, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/DataTable';
import { formatTime } from '../../reports/format';
import { useInventory } from '../api';
import { ImportCard } from './ImportCard';

const PAGE_SIZE = 20;
type BoundFilter = 'all' | 'bound' | 'free';

/** `operatorInventory`: the supplier's stock of loggers, its import, and which serial is bound where. */
export default function OperatorInventoryPage() {
  const { t } = useTranslation();
  const [keyword, setKeyword] = useState('');
  const [bound, setBound] = useState<BoundFilter>('all');
  const [pageNum, setPageNum] = useState(1);
  const inventory = useInventory({
    pageNum,
    pageSize: PAGE_SIZE,
    ...(keyword ? { keyword } : {}),
    ...(bound === 'all' ? {} : { bound: bound === 'bound' }),
  });

  const columns: TableColumnsType<InventoryRowView> = [
    { title: t('operator.inventory.serial'), dataIndex: 'serial', key: 'serial' },
    { title: t('operator.inventory.model'), dataIndex: 'model', key: 'model' },
    { title: t('operator.inventory.version'), dataIndex: 'version', key: 'version' },
    { title: t('operator.inventory.channels'), dataIndex: 'channelCount', key: 'channels' },
    { title: t('operator.inventory.added'), key: 'added', render: (_, r) => formatTime(r.createTime) },
    {
      title: t('operator.inventory.bindState'),
      key: 'bound',
      render: (_, r) =>
        r.companyName ? (
          <Tag color="blue">{t('operator.inventory.boundTo', { name: r.companyName })}</Tag>
        ) : (
          <Tag>{t('operator.inventory.inStock')}</Tag>
        ),
    },
  ];

  return (
    <div>
      <Typography.Title level={2} data-testid="page-title">
        {t('menu.operatorInventory')}
      </Typography.Title>
      <ImportCard />
      <Card>
        <Flex gap="small" wrap style={{ marginBottom: 16 }}>
          <Input.Search
            placeholder={t('operator.inventory.search')}
            aria-label={t('operator.inventory.search')}
            onSearch={(value) => {
              setKeyword(value.trim());
              setPageNum(1);
            }}
            style={{ maxWidth: 280 }}
            data-testid="inventory-search"
          />
          <Select<BoundFilter>
            value={bound}
            onChange={(value) => {
              setBound(value);
              setPageNum(1);
            }}
            aria-label={t('operator.inventory.bindState')}
            style={{ minWidth: 160 }}
            options={[
              { value: 'all', label: t('operator.inventory.all') },
              { value: 'bound', label: t('operator.inventory.onlyBound') },
              { value: 'free', label: t('operator.inventory.onlyFree') },
            ]}
          />
        </Flex>
        <DataTable<InventoryRowView>
          rowKey="serial"
          columns={columns}
          keyColumns={['bound']}
          dataSource={inventory.data?.list ?? []}
          loading={inventory.isFetching}
          onRow={(r) => ({ 'data-testid': `inventory-row-${r.serial}` }) as object}
          pagination={{
            current: pageNum,
            pageSize: PAGE_SIZE,
            total: inventory.data?.total ?? 0,
            hideOnSinglePage: true,
            showSizeChanger: false,
            onChange: setPageNum,
          }}
        />
      </Card>
    </div>
  );
}

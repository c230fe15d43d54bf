import {
  DeleteOutlined,
  EditOutlined,
  EnvironmentOutlined,
  PlusOutlined,
  ReloadOutlined,
} from '@ant-design/icons';
import type { AddressView } from '@coldchain/contract';
import {
  Alert,
  App,
  Button,
  Card,
  Flex,
  Input,
  Popconfirm,
  Result,
  Space,
  type TableColumnsType,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/DataTable';
import { useHasAuthTag } from '../../../session/queries';
import { AddressFormModal } from './AddressFormModal';
import { refusalOf, useAddresses, useDeleteAddress } from './api';

const PAGE_SIZE = 20;

/**
 * `addressManagement`: the company's shipping addresses, used as senders and receivers of
 * delivery orders. Company-wide: every member with `logistics:view` sees the same list.
 */
export default function AddressManagementPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const canEdit = useHasAuthTag('logistics:edit');
  const [keyword, setKeyword] = useState('');
  const [pageNum, setPageNum] = useState(1);
  // null: closed; 'new': adding; an address: editing it.
  const [editing, setEditing] = useState<AddressView | 'new' | null>(null);
  const addresses = useAddresses({ pageNum, pageSize: PAGE_SIZE, ...(keyword ? { keyword } : {}) });
  const remove = useDeleteAddress();
  const refusal = addresses.isError ? refusalOf(addresses.error) : null;

  const columns: TableColumnsType<AddressView> = [
    { title: t('logistics.address.field.name'), dataIndex: 'name', key: 'name' },
    { title: t('logistics.address.field.contact'), dataIndex: 'contact', key: 'contact' },
    { title: t('logistics.address.field.phone'), dataIndex: 'phone', key: 'phone' },
    {
      title: t('logistics.address.field.address'),
      key: 'address',
      render: (_, a) => [a.region, a.address].filter(Boolean).join(' '),
    },
    {
      title: t('logistics.address.position'),
      key: 'position',
      render: (_, a) =>
        a.lng != null && a.lat != null ? (
          <span>
            <EnvironmentOutlined /> {a.lng.toFixed(5)}, {a.lat.toFixed(5)}
          </span>
        ) : (
          '-'
        ),
    },
    {
      title: t('logistics.address.field.receiverCompanyCode'),
      key: 'receiver',
      render: (_, a) => a.receiverCompany?.name ?? '-',
    },
    {
      title: t('logistics.address.field.remarks'),
      dataIndex: 'remarks',
      key: 'remarks',
      render: (v: string) => v || '-',
    },
    ...(canEdit
      ? [
          {
            title: t('logistics.address.actions'),
            key: 'actions',
            render: (_: unknown, a: AddressView) => (
              <Space size="small" wrap>
                <Button
                  size="small"
                  icon={<EditOutlined />}
                  onClick={() => setEditing(a)}
                  data-testid={`address-edit-${a.id}`}
                >
                  {t('logistics.address.edit')}
                </Button>
                <Popconfirm
                  title={t('logistics.address.deleteConfirm', { name: a.name })}
                  okText={t('logistics.address.delete')}
                  cancelText={t('logistics.address.cancel')}
                  okButtonProps={{ danger: true, 'data-testid': 'address-delete-confirm' }}
                  onConfirm={() =>
                    remove
                      .mutateAsync(a.id)
                      .then(() => void message.success(t('logistics.address.deleted')))
                      .catch(() => undefined)
                  }
                >
                  <Button
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    data-testid={`address-delete-${a.id}`}
                  >
                    {t('logistics.address.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]
      : []),
  ];

  return (
    <div>
      <Typography.Title level={2} data-testid="page-title">
        {t('menu.addressManagement')}
      </Typography.Title>
      <Card>
        {refusal ? (
          <Result icon={<EnvironmentOutlined />} subTitle={refusal} data-testid="address-refused" />
        ) : (
          <>
            <Flex justify="space-between" align="center" gap="middle" wrap style={{ marginBottom: 16 }}>
              {/* No clear button: its 12 px target fails axe's touch-target rule on a phone. */}
              <Input.Search
                placeholder={t('logistics.address.keywordPlaceholder')}
                aria-label={t('logistics.address.keywordPlaceholder')}
                onSearch={(value) => {
                  setKeyword(value.trim());
                  setPageNum(1);
                }}
                style={{ maxWidth: 320 }}
                data-testid="address-keyword"
              />
              {canEdit ? (
                <Button
                  type="primary"
                  icon={<PlusOutlined />}
                  onClick={() => setEditing('new')}
                  data-testid="address-add"
                >
                  {t('logistics.address.add')}
                </Button>
              ) : (
                <Alert type="info" showIcon title={t('logistics.address.readOnly')} />
              )}
            </Flex>
            {addresses.isError ? (
              <Result
                status="warning"
                subTitle={t('logistics.address.loadFailed')}
                extra={
                  <Button icon={<ReloadOutlined />} onClick={() => void addresses.refetch()}>
                    {t('logistics.address.retry')}
                  </Button>
                }
              />
            ) : (
              <DataTable<AddressView>
                rowKey="id"
                columns={columns}
                dataSource={addresses.data?.list ?? []}
                loading={addresses.isFetching}
                locale={{ emptyText: t('logistics.address.empty') }}
                onRow={(a) => ({ 'data-testid': `address-row-${a.id}` }) as object}
                pagination={{
                  current: pageNum,
                  pageSize: PAGE_SIZE,
                  total: addresses.data?.total ?? 0,
                  hideOnSinglePage: true,
                  showSizeChanger: false,
                  onChange: setPageNum,
                }}
              />
            )}
          </>
        )}
      </Card>
      {editing && (
        <AddressFormModal address={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
    </div>
  );
}

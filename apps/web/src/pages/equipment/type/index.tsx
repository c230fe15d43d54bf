import { DeleteOutlined, EditOutlined, PlusOutlined, SearchOutlined } from '@ant-design/icons';
import { Limits } from '@coldchain/contract';
import {
  Button,
  Card,
  Flex,
  Image,
  Input,
  Popconfirm,
  Space,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DataTable } from '../../../components/DataTable';
import { useHasAuthTag } from '../../../session/queries';
import { useDeleteType, useEquipmentTypes } from '../api';
import { EQUIPMENT_LIST_PATH } from '../paths';
import type { EquipmentType } from '../types';
import { TypeEditorModal } from './TypeEditorModal';

const PAGE_SIZE = 20;

/** Equipment types: name, code, intro image and custom attributes; add, edit and delete. */
export default function EquipmentTypePage() {
  const { t } = useTranslation();
  const canEdit = useHasAuthTag('equipment:edit');
  const [search, setSearch] = useState('');
  const [keyword, setKeyword] = useState('');
  const [pageNum, setPageNum] = useState(1);
  const [editing, setEditing] = useState<EquipmentType | 'new' | null>(null);
  const remove = useDeleteType();

  useEffect(() => {
    const timer = setTimeout(() => {
      setKeyword(search.trim());
      setPageNum(1);
    }, Limits.searchDebounceMs);
    return () => clearTimeout(timer);
  }, [search]);

  const page = useEquipmentTypes({ pageNum, pageSize: PAGE_SIZE, ...(keyword ? { keyword } : {}) });

  const columns: TableColumnsType<EquipmentType> = [
    { title: t('equipment.type.code'), dataIndex: 'code', key: 'code' },
    { title: t('equipment.type.name'), dataIndex: 'name', key: 'name' },
    {
      title: t('equipment.type.introImage'),
      dataIndex: 'introImage',
      key: 'introImage',
      render: (url: string | null | undefined) => (url ? <Image src={url} width={48} height={48} /> : '-'),
    },
    {
      title: t('equipment.type.attributes'),
      key: 'attributes',
      render: (_, type) => (
        <Flex wrap gap={4}>
          {type.attributes.map((a) => (
            <Tag key={a.id ?? a.name}>
              {a.name} · {t(`equipment.attribute.kind.${a.kind}`)}
            </Tag>
          ))}
        </Flex>
      ),
    },
    { title: t('equipment.type.equipmentCount'), dataIndex: 'equipmentCount', key: 'equipmentCount' },
    ...(canEdit
      ? [
          {
            title: t('equipment.common.actions'),
            key: 'actions',
            render: (_: unknown, type: EquipmentType) => (
              <Space size="small">
                <Button
                  size="small"
                  icon={<EditOutlined />}
                  onClick={() => setEditing(type)}
                  data-testid={`type-edit-${type.code}`}
                >
                  {t('equipment.common.edit')}
                </Button>
                <Popconfirm
                  title={t('equipment.type.deleteConfirm', { name: type.name })}
                  okText={t('equipment.common.confirm')}
                  cancelText={t('equipment.common.cancel')}
                  okButtonProps={{ danger: true, ...({ 'data-testid': 'type-delete-confirm' } as object) }}
                  onConfirm={() => remove.mutateAsync({ id: type.id }).catch(() => undefined)}
                >
                  <Button
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    data-testid={`type-delete-${type.code}`}
                  >
                    {t('equipment.common.delete')}
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
        {t('menu.equipmentType')}
      </Typography.Title>
      <Card>
        <Flex justify="space-between" gap="middle" wrap style={{ marginBottom: 16 }}>
          <Input
            allowClear
            prefix={<SearchOutlined />}
            placeholder={t('equipment.type.searchPlaceholder')}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            style={{ maxWidth: 280 }}
            data-testid="type-search"
          />
          <Space wrap>
            <Link to={EQUIPMENT_LIST_PATH}>{t('equipment.common.backToList')}</Link>
            {canEdit && (
              <Button
                type="primary"
                icon={<PlusOutlined />}
                onClick={() => setEditing('new')}
                data-testid="type-add-open"
              >
                {t('equipment.type.add')}
              </Button>
            )}
          </Space>
        </Flex>
        <DataTable<EquipmentType>
          rowKey="id"
          columns={columns}
          dataSource={page.data?.list ?? []}
          loading={page.isFetching}
          locale={{ emptyText: t('equipment.type.empty') }}
          onRow={(type) => ({ 'data-testid': `type-row-${type.code}` }) as object}
          pagination={{
            current: pageNum,
            pageSize: PAGE_SIZE,
            total: page.data?.total ?? 0,
            showSizeChanger: false,
            onChange: setPageNum,
          }}
        />
      </Card>
      {editing && (
        <TypeEditorModal type={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
    </div>
  );
}

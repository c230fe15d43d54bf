import {
  AppstoreOutlined,
  EditOutlined,
  ExportOutlined,
  PlusOutlined,
  SearchOutlined,
  SwapOutlined,
} from '@ant-design/icons';
import { Limits } from '@coldchain/contract';
import {
  App,
  Badge,
  Button,
  Card,
  Flex,
  Input,
  Select,
  Space,
  type TableColumnsType,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { DataTable } from '../../components/DataTable';
import { useHasAuthTag } from '../../session/queries';
import { useCanExport } from '../../signature/SignPasswordField';
import { EQUIPMENT_PATHS, useEquipmentPage, useEquipmentTypes } from './api';
import { DepartmentSelect } from './components/DepartmentSelect';
import { UseStateTag } from './components/UseStateTag';
import { formatDate } from './format';
import { EquipmentTransferModal } from './list/BatchTransferModal';
import { EquipmentFormModal } from './list/EquipmentFormModal';
import { ExportEquipmentModal } from './list/ExportEquipmentModal';
import { EQUIPMENT_TYPE_PATH, equipmentDetailUrl } from './paths';
import { type EquipmentItem, USE_STATES } from './types';

const PAGE_SIZE = 20;

/** `?useState=n` comes from the home page's overview; anything else means every state. */
function parseUseState(raw: string | null): number | undefined {
  const n = Number(raw);
  return (USE_STATES as readonly number[]).includes(n) ? n : undefined;
}

/** Cold-chain equipment: filters (type, state, department, search), batch transfer, export, add and edit. */
export default function EquipmentPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [params, setParams] = useSearchParams();
  const useState_ = parseUseState(params.get('useState'));
  const [typeId, setTypeId] = useState<string | undefined>();
  const [departmentId, setDepartmentId] = useState<string | undefined>();
  const [search, setSearch] = useState('');
  const [keyword, setKeyword] = useState('');
  const [pageNum, setPageNum] = useState(1);
  const [selected, setSelected] = useState<string[]>([]);
  const [editing, setEditing] = useState<{ id: string | null } | null>(null);
  const [transferring, setTransferring] = useState(false);
  const [exporting, setExporting] = useState(false);
  const canEdit = useHasAuthTag('equipment:edit');
  const canView = useHasAuthTag('equipment:view');
  // The member's export flag (set by the company administrator) applies as on every list.
  const exportAllowed = useCanExport();
  const canExport = canView && exportAllowed;
  const types = useEquipmentTypes();

  // Spec section 9: the server is asked only once typing pauses.
  useEffect(() => {
    const timer = setTimeout(() => {
      setKeyword(search.trim());
      setPageNum(1);
    }, Limits.searchDebounceMs);
    return () => clearTimeout(timer);
  }, [search]);

  const filters = {
    ...(typeId ? { typeId } : {}),
    ...(useState_ ? { useState: useState_ } : {}),
    ...(departmentId ? { departmentId } : {}),
    ...(keyword ? { keyword } : {}),
  };
  const page = useEquipmentPage({ pageNum, pageSize: PAGE_SIZE, ...filters });

  const columns: TableColumnsType<EquipmentItem> = [
    { title: t('equipment.field.serial'), dataIndex: 'serial', key: 'serial' },
    {
      title: t('equipment.field.name'),
      dataIndex: 'name',
      key: 'name',
      render: (name: string, item) => (
        <Link to={equipmentDetailUrl(item.id)} onClick={(e) => e.stopPropagation()}>
          {name}
        </Link>
      ),
    },
    { title: t('equipment.field.type'), dataIndex: 'typeName', key: 'typeName' },
    { title: t('equipment.field.department'), dataIndex: 'departmentName', key: 'departmentName' },
    { title: t('equipment.field.sensors'), dataIndex: 'sensorCount', key: 'sensorCount' },
    {
      title: t('equipment.field.nextCalibration'),
      dataIndex: 'nextCalibrationTime',
      key: 'nextCalibrationTime',
      render: (ts: number | null | undefined) => formatDate(ts),
    },
    {
      title: t('equipment.field.useState'),
      dataIndex: 'useState',
      key: 'useState',
      render: (state: number, item) => (
        <Space size={4}>
          <UseStateTag state={state} />
          {(item.attributeIssueCount ?? 0) > 0 && (
            <Badge
              status="warning"
              text={t('equipment.list.issues', { count: item.attributeIssueCount })}
              data-testid="equipment-issues"
            />
          )}
        </Space>
      ),
    },
    ...(canEdit
      ? [
          {
            title: t('equipment.common.actions'),
            key: 'actions',
            render: (_: unknown, item: EquipmentItem) =>
              item.useState !== 3 && (
                <Button
                  size="small"
                  icon={<EditOutlined />}
                  onClick={(e) => {
                    e.stopPropagation();
                    setEditing({ id: item.id });
                  }}
                  data-testid={`equipment-edit-${item.serial}`}
                >
                  {t('equipment.common.edit')}
                </Button>
              ),
          },
        ]
      : []),
  ];

  const setUseState = (next: number | undefined) => {
    setPageNum(1);
    setParams(next ? { useState: String(next) } : {}, { replace: true });
  };

  return (
    <div>
      <Typography.Title level={2} data-testid="page-title">
        {t('menu.equipment')}
      </Typography.Title>
      <Card>
        <Flex justify="space-between" gap="middle" wrap style={{ marginBottom: 16 }}>
          <Space wrap>
            <Input
              allowClear
              prefix={<SearchOutlined />}
              placeholder={t('equipment.list.searchPlaceholder')}
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              style={{ maxWidth: 260 }}
              data-testid="equipment-search"
            />
            <Select
              allowClear
              style={{ minWidth: 160 }}
              placeholder={t('equipment.list.typeFilter')}
              aria-label={t('equipment.list.typeFilter')}
              value={typeId}
              onChange={(value?: string) => {
                setTypeId(value);
                setPageNum(1);
              }}
              options={(types.data?.list ?? []).map((ty) => ({ value: ty.id, label: ty.name }))}
              data-testid="equipment-type-filter"
            />
            <Select
              allowClear
              style={{ minWidth: 140 }}
              placeholder={t('equipment.list.stateFilter')}
              aria-label={t('equipment.list.stateFilter')}
              value={useState_}
              onChange={(value?: number) => setUseState(value)}
              options={USE_STATES.map((s) => ({ value: s, label: t(`equipment.useState.${s}`) }))}
              data-testid="equipment-state-filter"
            />
            <DepartmentSelect
              allowClear
              style={{ minWidth: 180 }}
              placeholder={t('equipment.list.departmentFilter')}
              aria-label={t('equipment.list.departmentFilter')}
              value={departmentId}
              onChange={(value?: string) => {
                setDepartmentId(value);
                setPageNum(1);
              }}
              data-testid="equipment-department-filter"
            />
          </Space>
          <Space wrap>
            {canEdit && selected.length > 0 && (
              <Typography.Text type="secondary" data-testid="equipment-selected">
                {t('equipment.list.selected', { count: selected.length })}
              </Typography.Text>
            )}
            {canEdit && (
              <Button
                icon={<SwapOutlined />}
                onClick={() =>
                  selected.length === 0
                    ? void message.warning(t('equipment.list.selectRequired'))
                    : setTransferring(true)
                }
                data-testid="equipment-transfer-open"
              >
                {t('equipment.transfer.open')}
              </Button>
            )}
            {canExport && (
              <Button
                icon={<ExportOutlined />}
                onClick={() => setExporting(true)}
                data-testid="equipment-export-open"
              >
                {t('equipment.export.open')}
              </Button>
            )}
            {canEdit && (
              <Link to={EQUIPMENT_TYPE_PATH} data-testid="equipment-types-link">
                <Button icon={<AppstoreOutlined />}>{t('menu.equipmentType')}</Button>
              </Link>
            )}
            {canEdit && (
              <Button
                type="primary"
                icon={<PlusOutlined />}
                onClick={() => setEditing({ id: null })}
                data-testid="equipment-add-open"
              >
                {t('equipment.list.add')}
              </Button>
            )}
          </Space>
        </Flex>
        <DataTable<EquipmentItem>
          rowKey="id"
          keyColumns={['useState']}
          rowSelection={
            canEdit
              ? {
                  selectedRowKeys: selected,
                  preserveSelectedRowKeys: true,
                  onChange: (keys) => setSelected(keys.map(String)),
                }
              : undefined
          }
          columns={columns}
          dataSource={page.data?.list ?? []}
          loading={page.isFetching}
          locale={{ emptyText: t('equipment.list.empty') }}
          onRow={(item) => ({
            onClick: () => navigate(equipmentDetailUrl(item.id)),
            style: { cursor: 'pointer' },
            'data-testid': `equipment-row-${item.serial}`,
          })}
          pagination={{
            current: pageNum,
            pageSize: PAGE_SIZE,
            total: page.data?.total ?? 0,
            showSizeChanger: false,
            showTotal: (count) => t('equipment.list.total', { count }),
            onChange: setPageNum,
          }}
        />
      </Card>
      <EquipmentFormModal
        open={editing !== null}
        id={editing?.id ?? null}
        onClose={(saved) => {
          setEditing(null);
          if (saved && editing?.id === null) navigate(equipmentDetailUrl(saved.id));
        }}
      />
      <EquipmentTransferModal
        equipmentIds={selected}
        open={transferring}
        onClose={(done) => {
          setTransferring(false);
          if (done) setSelected([]);
        }}
      />
      <ExportEquipmentModal
        open={exporting}
        onClose={() => setExporting(false)}
        path={EQUIPMENT_PATHS.export}
        body={filters}
        fileName="equipment"
        title={t('equipment.export.listTitle')}
        testId="equipment-export"
      />
    </div>
  );
}

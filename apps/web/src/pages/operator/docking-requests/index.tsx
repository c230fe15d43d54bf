import { CheckOutlined, CloseOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { type DockingPlatformView, type DockingRequestView, DockingState } from '@coldchain/contract';
import {
  App,
  Button,
  Card,
  Flex,
  Input,
  Modal,
  Popconfirm,
  Select,
  Space,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/DataTable';
import { formatTime } from '../../devices/format';
import { ListProblem } from '../../open-api/ListProblem';
import { DockingStateTag } from '../../platform-docking/DockingStateTag';
import { useDecideDocking, useDockingRequests, useOperatorPlatforms } from './api';
import { PlatformModal } from './PlatformModal';

const PAGE_SIZE = 20;

/**
 * The operator's platform docking (`operatorDockingRequests`): the platforms offered to companies
 * (endpoint, key id, a write-only secret) and the companies' applications, pending first, to
 * enable (deliveries start) or refuse with a reason the company reads.
 */
export default function DockingRequestsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [platformPage, setPlatformPage] = useState(1);
  const [requestPage, setRequestPage] = useState(1);
  const [state, setState] = useState<number | undefined>(DockingState.Pending);
  const platforms = useOperatorPlatforms({ pageNum: platformPage, pageSize: PAGE_SIZE });
  const requests = useDockingRequests({
    pageNum: requestPage,
    pageSize: PAGE_SIZE,
    ...(state ? { state } : {}),
  });
  const decide = useDecideDocking();
  const [editing, setEditing] = useState<DockingPlatformView | 'new' | null>(null);
  const [refusing, setRefusing] = useState<DockingRequestView | null>(null);
  const [reason, setReason] = useState('');

  const platformColumns: TableColumnsType<DockingPlatformView> = [
    { title: t('platformDock.operator.name'), dataIndex: 'name', key: 'name' },
    {
      title: t('platformDock.operator.endpoint'),
      key: 'endpoint',
      render: (_, p) => <Typography.Text style={{ wordBreak: 'break-all' }}>{p.endpoint}</Typography.Text>,
    },
    {
      title: t('platformDock.operator.protocol'),
      key: 'protocol',
      render: (_, p) => t(`platformDock.protocols.${p.protocol}`),
    },
    {
      title: t('platformDock.operator.offered'),
      key: 'offered',
      render: (_, p) => (
        <Tag color={p.offered ? 'green' : 'default'}>
          {t(p.offered ? 'platformDock.operator.yes' : 'platformDock.operator.no')}
        </Tag>
      ),
    },
    { title: t('platformDock.operator.active'), dataIndex: 'activeDockings', key: 'active' },
    {
      title: t('platformDock.common.actions'),
      key: 'actions',
      render: (_, p) => (
        <Button
          size="small"
          icon={<EditOutlined />}
          onClick={() => setEditing(p)}
          data-testid={`platform-edit-${p.id}`}
        >
          {t('platformDock.operator.edit')}
        </Button>
      ),
    },
  ];

  const requestColumns: TableColumnsType<DockingRequestView> = [
    { title: t('platformDock.operator.company'), dataIndex: 'companyName', key: 'company' },
    { title: t('platformDock.list.platform'), dataIndex: 'platformName', key: 'platform' },
    { title: t('platformDock.list.monitors'), key: 'monitors', render: (_, r) => r.deviceIds.length },
    {
      title: t('platformDock.list.applied'),
      key: 'applied',
      render: (_, r) => `${formatTime(r.applyTime)} ${r.appliedBy}`,
    },
    {
      title: t('platformDock.list.state'),
      key: 'state',
      render: (_, r) => <DockingStateTag id={r.id} state={r.state} />,
    },
    { title: t('platformDock.monitor.reason'), key: 'reason', render: (_, r) => r.reason || '-' },
    {
      title: t('platformDock.common.actions'),
      key: 'actions',
      render: (_, r) =>
        r.state === DockingState.Pending ? (
          <Space size="small" wrap>
            <Popconfirm
              title={t('platformDock.operator.enableConfirm')}
              okText={t('platformDock.operator.enable')}
              cancelText={t('platformDock.common.cancel')}
              okButtonProps={{ 'data-testid': 'docking-enable-confirm' }}
              onConfirm={() =>
                decide
                  .mutateAsync({ id: r.id, enable: true })
                  .then(() => void message.success(t('platformDock.operator.enabled')))
                  .catch(() => undefined)
              }
            >
              <Button
                size="small"
                type="primary"
                icon={<CheckOutlined />}
                data-testid={`docking-enable-${r.id}`}
              >
                {t('platformDock.operator.enable')}
              </Button>
            </Popconfirm>
            <Button
              size="small"
              danger
              icon={<CloseOutlined />}
              onClick={() => setRefusing(r)}
              data-testid={`docking-refuse-${r.id}`}
            >
              {t('platformDock.operator.refuse')}
            </Button>
          </Space>
        ) : null,
    },
  ];

  return (
    <div>
      <Typography.Title level={2} data-testid="page-title">
        {t('menu.operatorDockingRequests')}
      </Typography.Title>
      <Card
        title={t('platformDock.operator.platforms')}
        extra={
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setEditing('new')}
            data-testid="platform-add"
          >
            {t('platformDock.operator.addPlatform')}
          </Button>
        }
      >
        {platforms.isError ? (
          <ListProblem error={platforms.error} onRetry={() => void platforms.refetch()} />
        ) : (
          <DataTable<DockingPlatformView>
            rowKey="id"
            keyColumns={['offered']}
            columns={platformColumns}
            dataSource={platforms.data?.list ?? []}
            loading={platforms.isFetching}
            locale={{ emptyText: t('platformDock.operator.noPlatforms') }}
            pagination={{
              current: platformPage,
              pageSize: PAGE_SIZE,
              total: platforms.data?.total ?? 0,
              hideOnSinglePage: true,
              showSizeChanger: false,
              onChange: setPlatformPage,
            }}
          />
        )}
      </Card>
      <Card title={t('platformDock.operator.requests')} style={{ marginTop: 16 }}>
        <Flex style={{ marginBottom: 16 }}>
          <Select
            style={{ minWidth: 160 }}
            value={state ?? 0}
            aria-label={t('platformDock.list.state')}
            onChange={(value: number) => {
              setState(value || undefined);
              setRequestPage(1);
            }}
            options={[
              { value: 0, label: t('platformDock.operator.allStates') },
              ...[1, 2, 3].map((s) => ({ value: s, label: t(`platformDock.states.${s}`) })),
            ]}
            data-testid="docking-state-filter"
          />
        </Flex>
        {requests.isError ? (
          <ListProblem error={requests.error} onRetry={() => void requests.refetch()} />
        ) : (
          <DataTable<DockingRequestView>
            rowKey="id"
            keyColumns={['state']}
            columns={requestColumns}
            dataSource={requests.data?.list ?? []}
            loading={requests.isFetching}
            locale={{ emptyText: t('platformDock.operator.noRequests') }}
            onRow={(r) => ({ 'data-testid': `docking-row-${r.id}` }) as object}
            pagination={{
              current: requestPage,
              pageSize: PAGE_SIZE,
              total: requests.data?.total ?? 0,
              hideOnSinglePage: true,
              showSizeChanger: false,
              onChange: setRequestPage,
            }}
          />
        )}
      </Card>
      {editing && (
        <PlatformModal editing={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
      {refusing && (
        <Modal
          open
          title={t('platformDock.operator.refuseTitle', { company: refusing.companyName })}
          okText={t('platformDock.operator.refuse')}
          cancelText={t('platformDock.common.cancel')}
          okButtonProps={{ danger: true, 'data-testid': 'docking-refuse-confirm' }}
          confirmLoading={decide.isPending}
          onCancel={() => setRefusing(null)}
          onOk={() =>
            decide
              .mutateAsync({ id: refusing.id, enable: false, reason: reason.trim() })
              .then(() => {
                setRefusing(null);
                setReason('');
              })
              .catch(() => undefined)
          }
        >
          <Input.TextArea
            value={reason}
            maxLength={200}
            onChange={(e) => setReason(e.target.value)}
            placeholder={t('platformDock.operator.reasonPlaceholder')}
            aria-label={t('platformDock.monitor.reason')}
            data-testid="docking-refuse-reason"
          />
        </Modal>
      )}
    </div>
  );
}

import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import {
  Button,
  Card,
  Flex,
  Popconfirm,
  Segmented,
  Space,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DataTable } from '../../../components/DataTable';
import { useHasAuthTag } from '../../../session/queries';
import { useDeletePatrolPlan, usePatrolPlans, usePatrolRounds } from '../api';
import { formatTime } from '../format';
import { equipmentDetailUrl } from '../paths';
import { PATROL_STATES, type PatrolPlan, type PatrolRound, type PatrolState } from '../types';
import { PatrolPlanModal } from './PatrolPlanModal';
import { PatrolRecordModal } from './PatrolRecordModal';

const PAGE_SIZE = 20;
const ROUND_COLORS: Record<PatrolState, string> = { due: 'blue', done: 'green', missed: 'red' };

export function RoundTag({ state }: { state: PatrolState }) {
  const { t } = useTranslation();
  return (
    <Tag color={ROUND_COLORS[state]} data-testid={`round-${state}`}>
      {t(`equipment.patrol.state.${state}`)}
    </Tag>
  );
}

/** A plan's last rounds, opened under its row. */
function PlanRounds({ planId }: { planId: string }) {
  const { t } = useTranslation();
  const rounds = usePatrolRounds(planId);
  return (
    <Table<PatrolRound>
      size="small"
      rowKey="startTime"
      loading={rounds.isLoading}
      dataSource={rounds.data?.list ?? []}
      pagination={{ pageSize: 10, hideOnSinglePage: true }}
      scroll={{ x: 'max-content' }}
      data-testid={`plan-rounds-${planId}`}
      columns={[
        { title: t('equipment.patrol.roundStart'), key: 'start', render: (_, r) => formatTime(r.startTime) },
        { title: t('equipment.patrol.roundEnd'), key: 'end', render: (_, r) => formatTime(r.endTime) },
        {
          title: t('equipment.patrol.stateLabel'),
          key: 'state',
          render: (_, r) => <RoundTag state={r.state} />,
        },
      ]}
    />
  );
}

/** Patrol records: plans with their current round (due, done, missed), the rounds, and recording a patrol. */
export default function PatrolInfoPage() {
  const { t } = useTranslation();
  const canEdit = useHasAuthTag('equipment:edit');
  const [pageNum, setPageNum] = useState(1);
  const [state, setState] = useState<PatrolState | 'all'>('all');
  const [adding, setAdding] = useState(false);
  const [recording, setRecording] = useState<PatrolPlan | null>(null);
  const plans = usePatrolPlans({ pageNum, pageSize: PAGE_SIZE });
  const remove = useDeletePatrolPlan();
  // The call has no state filter; the current round's state is filtered on the page shown.
  const list = (plans.data?.list ?? []).filter((p) => state === 'all' || p.currentRound?.state === state);

  const columns: TableColumnsType<PatrolPlan> = [
    { title: t('equipment.patrol.planName'), dataIndex: 'name', key: 'name' },
    {
      title: t('equipment.patrol.target'),
      key: 'target',
      render: (_, plan) =>
        plan.equipmentId ? (
          <Link to={equipmentDetailUrl(plan.equipmentId)}>{plan.equipmentName ?? plan.equipmentId}</Link>
        ) : (
          <span>
            {t('equipment.patrol.targetGroup')}: {plan.groupName || '-'}
          </span>
        ),
    },
    {
      title: t('equipment.patrol.interval'),
      dataIndex: 'intervalHours',
      key: 'intervalHours',
      render: (hours: number) => t('equipment.patrol.hours', { count: hours }),
    },
    {
      title: t('equipment.patrol.currentRound'),
      key: 'currentRound',
      render: (_, plan) =>
        plan.currentRound ? (
          <Space size={4} wrap>
            <RoundTag state={plan.currentRound.state} />
            <Typography.Text type="secondary">
              {t('equipment.patrol.until', { time: formatTime(plan.currentRound.endTime) })}
            </Typography.Text>
          </Space>
        ) : (
          '-'
        ),
    },
    {
      title: t('equipment.patrol.lastPatrol'),
      dataIndex: 'lastPatrolTime',
      key: 'lastPatrolTime',
      render: (ts: number | null | undefined) => formatTime(ts),
    },
    ...(canEdit
      ? [
          {
            title: t('equipment.common.actions'),
            key: 'actions',
            render: (_: unknown, plan: PatrolPlan) => (
              <Space size="small">
                <Button
                  size="small"
                  type="primary"
                  icon={<EditOutlined />}
                  disabled={!plan.enabled}
                  onClick={() => setRecording(plan)}
                  data-testid={`patrol-record-open-${plan.id}`}
                >
                  {t('equipment.patrol.record')}
                </Button>
                <Popconfirm
                  title={t('equipment.patrol.deleteConfirm')}
                  okText={t('equipment.common.confirm')}
                  cancelText={t('equipment.common.cancel')}
                  okButtonProps={{ danger: true }}
                  onConfirm={() => remove.mutateAsync({ id: plan.id }).catch(() => undefined)}
                >
                  <Button
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    data-testid={`plan-delete-${plan.id}`}
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
        {t('menu.patrolInfo')}
      </Typography.Title>
      <Card>
        <Flex justify="space-between" gap="middle" wrap style={{ marginBottom: 16 }}>
          <Segmented<PatrolState | 'all'>
            value={state}
            onChange={setState}
            options={[
              { value: 'all', label: t('equipment.patrol.state.all') },
              ...PATROL_STATES.map((s) => ({ value: s, label: t(`equipment.patrol.state.${s}`) })),
            ]}
            data-testid="patrol-state-filter"
          />
          {canEdit && (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setAdding(true)}
              data-testid="plan-add-open"
            >
              {t('equipment.patrol.addPlan')}
            </Button>
          )}
        </Flex>
        <DataTable<PatrolPlan>
          rowKey="id"
          keyColumns={['currentRound']}
          columns={columns}
          dataSource={list}
          loading={plans.isFetching}
          locale={{ emptyText: t('equipment.patrol.empty') }}
          expandable={{ expandedRowRender: (plan) => <PlanRounds planId={plan.id} /> }}
          onRow={(plan) => ({ 'data-testid': `plan-row-${plan.id}` }) as object}
          pagination={{
            current: pageNum,
            pageSize: PAGE_SIZE,
            total: plans.data?.total ?? 0,
            showSizeChanger: false,
            onChange: setPageNum,
          }}
        />
      </Card>
      {adding && <PatrolPlanModal onClose={() => setAdding(false)} />}
      {recording && <PatrolRecordModal plan={recording} onClose={() => setRecording(null)} />}
    </div>
  );
}

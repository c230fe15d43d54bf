import { DeleteOutlined, DragOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import type { DeviceView, GroupingDepartment, GroupWithDevices } from '@coldchain/contract';
import { Button, Card, Empty, Flex, Popconfirm, Select, Space, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { sensorName } from '../../components/labels';
import { useHasAuthTag } from '../../session/queries';
import { StateTag } from '../devices/components/StateTag';
import { formatSensorValue, STATE_COLORS } from '../devices/format';
import { detailUrl } from '../devices/paths';
import { GroupFormModal, type GroupFormTarget, MoveGroupModal } from './GroupDialogs';
import { useDeleteGroup, useGroupDevices } from './queries';

/** A monitor as a card: name, state and the latest value of every channel. */
function DeviceCard({ device }: { device: DeviceView }) {
  const { t } = useTranslation();
  return (
    <Card
      size="small"
      style={{ width: 220, borderTop: `3px solid ${STATE_BORDER[device.state] ?? '#d9d9d9'}` }}
      data-testid={`grouping-device-${device.serial}`}
      title={<Link to={detailUrl(device.id)}>{device.name}</Link>}
      extra={<StateTag state={device.state} lastSeenTime={device.lastSeenTime} />}
    >
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {device.serial}
      </Typography.Text>
      {device.sensors.length === 0 && <div>{t('groups.noSensors')}</div>}
      {device.sensors.map((s) => (
        <Flex key={s.id} justify="space-between">
          <Typography.Text type="secondary">{sensorName(t, s.name)}</Typography.Text>
          <Typography.Text strong>{formatSensorValue(s)}</Typography.Text>
        </Flex>
      ))}
    </Card>
  );
}

/** Card top borders by state (antd's named colours as hex, as Tag uses them). */
const STATE_BORDER: Record<number, string> = {
  1: '#52c41a',
  2: '#ff4d4f',
  3: '#fa8c16',
  4: '#bfbfbf',
  5: '#1677ff',
  6: '#722ed1',
};

function DeviceCards({ devices }: { devices: DeviceView[] }) {
  return (
    <Flex wrap gap="small">
      {devices.map((d) => (
        <DeviceCard key={d.id} device={d} />
      ))}
    </Flex>
  );
}

interface GroupActions {
  canEdit: boolean;
  onEdit: (group: GroupWithDevices) => void;
  onMove: (group: GroupWithDevices) => void;
  onDelete: (group: GroupWithDevices) => void;
}

/** A group with its state colour, its devices and, indented, its sub-groups. */
function GroupSection({ group, actions }: { group: GroupWithDevices; actions: GroupActions }) {
  const { t } = useTranslation();
  return (
    <div
      data-testid={`group-${group.name}`}
      style={{
        borderLeft: `4px solid ${STATE_BORDER[group.state] ?? '#d9d9d9'}`,
        paddingLeft: 12,
        marginBottom: 12,
      }}
    >
      <Flex align="center" gap="small" wrap style={{ marginBottom: 8 }}>
        <Typography.Text strong>{group.name}</Typography.Text>
        <span data-testid="group-state" data-color={STATE_COLORS[group.state]}>
          <StateTag state={group.state} />
        </span>
        <Typography.Text type="secondary">
          {t('groups.deviceCount', { count: group.devices.length })}
        </Typography.Text>
        {actions.canEdit && (
          <Space size={0}>
            <Button
              type="link"
              size="small"
              icon={<EditOutlined />}
              onClick={() => actions.onEdit(group)}
              data-testid="group-edit"
            >
              {t('groups.edit')}
            </Button>
            <Button
              type="link"
              size="small"
              icon={<DragOutlined />}
              onClick={() => actions.onMove(group)}
              data-testid="group-move"
            >
              {t('groups.move.open')}
            </Button>
            <Popconfirm
              title={t('groups.delete.title', { name: group.name })}
              description={t('groups.delete.content')}
              okText={t('groups.delete.confirm')}
              cancelText={t('groups.form.cancel')}
              onConfirm={() => actions.onDelete(group)}
              okButtonProps={{ 'data-testid': 'group-delete-confirm' }}
            >
              <Button type="link" size="small" danger icon={<DeleteOutlined />} data-testid="group-delete">
                {t('groups.delete.open')}
              </Button>
            </Popconfirm>
          </Space>
        )}
      </Flex>
      {group.devices.length > 0 && <DeviceCards devices={group.devices} />}
      {group.children.length > 0 && (
        <div style={{ marginTop: 8 }}>
          {group.children.map((child) => (
            <GroupSection key={child.id} group={child} actions={actions} />
          ))}
        </div>
      )}
    </div>
  );
}

function DepartmentCard({
  department,
  actions,
  onAdd,
}: {
  department: GroupingDepartment;
  actions: GroupActions;
  onAdd: () => void;
}) {
  const { t } = useTranslation();
  const empty = department.groups.length === 0 && department.devices.length === 0;
  return (
    <Card
      data-testid={`grouping-department-${department.name}`}
      title={
        <Space>
          {department.name}
          <StateTag state={department.state} />
        </Space>
      }
      extra={
        actions.canEdit && (
          <Button size="small" icon={<PlusOutlined />} onClick={onAdd} data-testid="group-add">
            {t('groups.add')}
          </Button>
        )
      }
      style={{ marginBottom: 16 }}
    >
      {empty && <Empty description={t('groups.emptyDepartment')} />}
      {department.groups.map((group) => (
        <GroupSection key={group.id} group={group} actions={actions} />
      ))}
      {department.devices.length > 0 && (
        <div data-testid="grouping-ungrouped">
          <Typography.Title level={5}>{t('groups.ungrouped')}</Typography.Title>
          <DeviceCards devices={department.devices} />
        </div>
      )}
    </Card>
  );
}

/**
 * Grouping mode (spec sections 2-4): each department with its group tree, every group coloured by
 * its state (the worst of its devices) and its monitors as cards with live values.
 */
export default function GroupingModePage() {
  const { t } = useTranslation();
  const [departmentId, setDepartmentId] = useState<string | null>(null);
  const grouping = useGroupDevices(departmentId);
  const all = useGroupDevices(null);
  const canEdit = useHasAuthTag('device:edit');
  const remove = useDeleteGroup();
  const [formTarget, setFormTarget] = useState<GroupFormTarget | null>(null);
  const [moving, setMoving] = useState<GroupWithDevices | null>(null);

  const actions: GroupActions = {
    canEdit,
    onEdit: (group) => setFormTarget({ mode: 'edit', group }),
    onMove: setMoving,
    onDelete: (group) => remove.mutate({ id: group.id }),
  };

  return (
    <div>
      <Typography.Title level={2} data-testid="page-title">
        {t('menu.groupingMode')}
      </Typography.Title>
      <Flex gap="middle" style={{ marginBottom: 16 }}>
        <Select
          allowClear
          style={{ minWidth: 240 }}
          placeholder={t('groups.allDepartments')}
          aria-label={t('groups.allDepartments')}
          value={departmentId ?? undefined}
          onChange={(value?: string) => setDepartmentId(value ?? null)}
          options={(all.data ?? []).map((d) => ({ value: d.id, label: d.name }))}
          data-testid="grouping-department-filter"
        />
      </Flex>
      {grouping.isLoading && <Spin />}
      {grouping.data?.length === 0 && <Empty description={t('groups.empty')} />}
      {grouping.data?.map((department) => (
        <DepartmentCard
          key={department.id}
          department={department}
          actions={actions}
          onAdd={() =>
            setFormTarget({
              mode: 'add',
              departmentId: department.id,
              departmentName: department.name,
              parentGroups: department.groups,
            })
          }
        />
      ))}
      <GroupFormModal target={formTarget} onClose={() => setFormTarget(null)} />
      <MoveGroupModal group={moving} onClose={() => setMoving(null)} />
    </div>
  );
}

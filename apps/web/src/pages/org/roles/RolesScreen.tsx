import { PlusOutlined } from '@ant-design/icons';
import type { RoleView } from '@coldchain/contract';
import { Button, Card, Flex, Popconfirm, Space, type TableColumnsType, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { DataTable } from '../../../components/DataTable';
import { roleName } from '../../../components/labels';
import { useHasAuthTag } from '../../../session/queries';
import { DepartmentTreeSelect } from '../components/DepartmentTreeSelect';
import { TagSummary } from '../components/TagSummary';
import { useDeleteRole, useDepartmentTree, useRoles } from '../queries';
import { RoleModal } from './RoleModal';

/**
 * Roles of one department (spec section 6): name, user count, permissions. `?departmentId=`
 * chooses the department (orgRoleManagement); otherwise the picker starts at the top of the
 * caller's tree. Changes need role:edit.
 */
export function RolesScreen({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const tree = useDepartmentTree();
  const [picked, setPicked] = useState<string | undefined>(params.get('departmentId') ?? undefined);
  const departmentId = picked ?? tree.data?.[0]?.id;
  const roles = useRoles(departmentId);
  const remove = useDeleteRole();
  const canEdit = useHasAuthTag('role:edit');
  const [editing, setEditing] = useState<{ role: RoleView | null } | null>(null);

  const columns: TableColumnsType<RoleView> = [
    {
      title: t('org.role.name'),
      dataIndex: 'name',
      key: 'name',
      render: (name: string, r) => (
        <Space size={4}>
          <span>{roleName(t, name)}</span>
          {r.isDepartmentAdmin ? <Tag color="gold">{t('org.role.departmentAdmin')}</Tag> : null}
        </Space>
      ),
    },
    { title: t('org.role.userCount'), dataIndex: 'userCount', key: 'userCount' },
    {
      title: t('org.role.permissions'),
      dataIndex: 'tags',
      key: 'tags',
      render: (tags: string[]) => <TagSummary tags={tags} />,
    },
  ];
  if (canEdit) {
    columns.push({
      title: t('org.actions'),
      key: 'actions',
      render: (_, r) => (
        <Space size={0}>
          <Button
            type="link"
            size="small"
            onClick={() => setEditing({ role: r })}
            data-testid={`role-edit-${r.id}`}
          >
            {t('org.edit.action')}
          </Button>
          {r.isDepartmentAdmin ? null : (
            <Popconfirm
              title={t('org.role.deleteConfirm', { name: r.name })}
              okText={t('org.confirm')}
              cancelText={t('org.cancel')}
              onConfirm={() => remove.mutateAsync({ id: r.id }).catch(() => {})}
            >
              <Button type="link" size="small" danger data-testid={`role-delete-${r.id}`}>
                {t('org.delete.action')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    });
  }

  return (
    <div>
      <Typography.Title level={2} data-testid="page-title">
        {t(titleKey)}
      </Typography.Title>
      <Card>
        <Flex gap="middle" justify="space-between" wrap style={{ marginBottom: 16 }}>
          <DepartmentTreeSelect
            value={departmentId}
            onChange={setPicked}
            data-testid="role-department"
            aria-label={t('org.field.department')}
          />
          {canEdit && departmentId ? (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing({ role: null })}
              data-testid="role-add"
            >
              {t('org.role.add')}
            </Button>
          ) : null}
        </Flex>
        <DataTable<RoleView>
          rowKey="id"
          columns={columns}
          dataSource={roles.data?.list ?? []}
          loading={!!departmentId && roles.isFetching}
          pagination={false}
          onRow={(r) => ({ 'data-testid': `role-row-${r.id}` }) as React.HTMLAttributes<HTMLElement>}
        />
      </Card>
      {departmentId ? (
        <RoleModal
          open={!!editing}
          departmentId={departmentId}
          role={editing?.role ?? null}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </div>
  );
}

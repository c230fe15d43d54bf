import { PlusOutlined } from '@ant-design/icons';
import type { DepartmentNode } from '@coldchain/contract';
import { Button, Card, Flex, Popconfirm, Space, type TableColumnsType, Typography } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { DataTable } from '../../../components/DataTable';
import { useHasAuthTag, useUserInfo } from '../../../session/queries';
import { AuditSignatureCard } from '../../../signature/AuditSignatureCard';
import { useDeleteDepartment, useDepartmentTree } from '../queries';
import { type DepartmentRow, findDepartment, flattenTree, toRows } from '../tree';
import { OrgUrl } from '../urls';
import { EditDepartmentModal } from './EditDepartmentModal';
import { InviteModal } from './InviteModal';
import { JoinRequests } from './JoinRequests';
import { PasswordRenewalCard, useIsCompanyAdmin } from './PasswordRenewalCard';
import { TransferLeaderModal } from './TransferLeaderModal';

type Dialog = 'edit' | 'transfer' | 'invite';

/**
 * Organisation structure (spec section 2, `organization`): the department tree with code,
 * person in charge, members and devices. Changes need org:edit; the links to a department's
 * roles and personnel need role:view and user:view.
 */
export default function OrganizationPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const tree = useDepartmentTree();
  const remove = useDeleteDepartment();
  const canEdit = useHasAuthTag('org:edit');
  const canRoles = useHasAuthTag('role:view');
  const canPeople = useHasAuthTag('user:view');
  const canReview = useHasAuthTag('user:edit');
  const userId = useUserInfo().data?.id;
  const isCompanyAdmin = useIsCompanyAdmin();
  // A person in charge may invite to their department and review its applications without the tags.
  const leads = (d: { leaderId: string | null }) => !!userId && d.leaderId === userId;
  const leadsAny = flattenTree(tree.data ?? []).some(leads);
  const [dialog, setDialog] = useState<{ kind: Dialog; id: string } | null>(null);
  const close = useCallback(() => setDialog(null), []);
  // The whole tree starts open; null until the user folds or unfolds a branch.
  const [expanded, setExpanded] = useState<React.Key[] | null>(null);
  const target = (kind: Dialog): DepartmentNode | null =>
    dialog?.kind === kind ? (findDepartment(tree.data ?? [], dialog.id) ?? null) : null;

  const columns: TableColumnsType<DepartmentRow> = [
    {
      title: t('org.field.name'),
      dataIndex: 'name',
      key: 'name',
      render: (name: string, d) => (
        <Link to={OrgUrl.detail(d.id)} data-testid={`department-name-${d.id}`}>
          {name}
        </Link>
      ),
    },
    { title: t('org.field.code'), dataIndex: 'code', key: 'code' },
    {
      title: t('org.field.leader'),
      dataIndex: 'leaderName',
      key: 'leaderName',
      render: (v: string) => v || '-',
    },
    { title: t('org.field.members'), dataIndex: 'memberCount', key: 'memberCount' },
    // Filed here (what the device list filtered by the department shows), then with the
    // sub-departments': what the person in charge oversees (docs/decisions.md).
    { title: t('org.field.devices'), dataIndex: 'deviceCount', key: 'deviceCount' },
    {
      title: t('org.field.devicesInSubtree'),
      dataIndex: 'subtreeDeviceCount',
      key: 'subtreeDeviceCount',
      width: 150,
      render: (n: number) => <span data-testid="department-subtree-devices">{n}</span>,
    },
    {
      title: t('org.actions'),
      key: 'actions',
      // The six links wrap onto two lines instead of pushing the counts out of view (issue 20).
      width: 250,
      render: (_, d) => (
        <Space size={0} wrap>
          {canEdit ? (
            <>
              <Button
                type="link"
                size="small"
                onClick={() => navigate(OrgUrl.addSector(d.id))}
                data-testid={`department-add-${d.id}`}
              >
                {t('org.tree.addChild')}
              </Button>
              <Button
                type="link"
                size="small"
                onClick={() => setDialog({ kind: 'edit', id: d.id })}
                data-testid={`department-edit-${d.id}`}
              >
                {t('org.edit.action')}
              </Button>
              <Button
                type="link"
                size="small"
                onClick={() => setDialog({ kind: 'transfer', id: d.id })}
                data-testid={`department-transfer-${d.id}`}
              >
                {t('org.transfer.action')}
              </Button>
              {d.pid !== '0' ? (
                <Popconfirm
                  title={t('org.delete.confirm', { name: d.name })}
                  okText={t('org.confirm')}
                  cancelText={t('org.cancel')}
                  onConfirm={() => remove.mutateAsync({ id: d.id }).catch(() => {})}
                >
                  <Button type="link" size="small" danger data-testid={`department-delete-${d.id}`}>
                    {t('org.delete.action')}
                  </Button>
                </Popconfirm>
              ) : null}
            </>
          ) : null}
          {canEdit || leads(d) ? (
            <Button
              type="link"
              size="small"
              onClick={() => setDialog({ kind: 'invite', id: d.id })}
              data-testid={`department-invite-${d.id}`}
            >
              {t('org.invite.action')}
            </Button>
          ) : null}
          {canRoles ? (
            <Button
              type="link"
              size="small"
              onClick={() => navigate(OrgUrl.roles(d.id))}
              data-testid={`department-roles-${d.id}`}
            >
              {t('org.tree.roles')}
            </Button>
          ) : null}
          {canPeople ? (
            <Button
              type="link"
              size="small"
              onClick={() => navigate(OrgUrl.personnel(d.id))}
              data-testid={`department-people-${d.id}`}
            >
              {t('org.tree.personnel')}
            </Button>
          ) : null}
        </Space>
      ),
    },
  ];

  const rows = toRows(tree.data ?? []);
  return (
    <div>
      <Flex justify="space-between" align="center" wrap>
        <Typography.Title level={2} data-testid="page-title">
          {t('menu.organization')}
        </Typography.Title>
        {canEdit ? (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => navigate(OrgUrl.addSector())}
            data-testid="department-add"
          >
            {t('menu.addSector')}
          </Button>
        ) : null}
      </Flex>
      <Card>
        <DataTable<DepartmentRow>
          rowKey="id"
          columns={columns}
          dataSource={rows}
          loading={tree.isFetching}
          pagination={false}
          expandable={{
            expandedRowKeys: expanded ?? flattenTree(tree.data ?? []).map((d) => d.id),
            onExpandedRowsChange: (keys) => setExpanded([...keys]),
          }}
          onRow={(d) => ({ 'data-testid': `department-row-${d.id}` }) as React.HTMLAttributes<HTMLElement>}
        />
      </Card>
      {canReview || leadsAny ? <JoinRequests /> : null}
      {isCompanyAdmin ? <PasswordRenewalCard /> : null}
      {isCompanyAdmin ? <AuditSignatureCard /> : null}
      <EditDepartmentModal department={target('edit')} onClose={close} />
      <TransferLeaderModal department={target('transfer')} onClose={close} />
      <InviteModal department={target('invite')} onClose={close} />
    </div>
  );
}

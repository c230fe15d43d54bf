import type { MemberView, PageUsersRequest } from '@coldchain/contract';
import { Button, Card, Flex, Input, Popconfirm, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useHasAuthTag } from '../../../session/queries';
import { MemberExportSwitch } from '../../../signature/MemberExportSwitch';
import { DepartmentTreeSelect } from '../components/DepartmentTreeSelect';
import { MemberTable } from '../components/MemberTable';
import { RoleSelect } from '../components/RoleSelect';
import { useIsCompanyAdmin } from '../organization/PasswordRenewalCard';
import { useMembers, useRemoveUser } from '../queries';
import { useDebounced } from '../useDebounced';
import { AssignRoleModal, MoveUserModal } from './MemberDialogs';

const PAGE_SIZE = 20;

/**
 * Members of the caller's scope (spec section 6: users can change role or department, and be
 * removed). `?departmentId=` starts at one department (sectorPersonnelManagement). Searching
 * waits 200 ms after the last key; the actions need user:edit.
 */
export function PersonnelScreen({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const canEdit = useHasAuthTag('user:edit');
  // The export flag is the company administrator's (spec section 6), not user:edit's.
  const isCompanyAdmin = useIsCompanyAdmin();
  const [pageNum, setPageNum] = useState(1);
  const [keyword, setKeyword] = useState('');
  const [departmentId, setDepartmentId] = useState<string | undefined>(
    params.get('departmentId') ?? undefined,
  );
  const [roleId, setRoleId] = useState<string | undefined>();
  const [dialog, setDialog] = useState<{ kind: 'assign' | 'move'; member: MemberView } | null>(null);
  const remove = useRemoveUser();
  const search = useDebounced(keyword.trim());

  const body: Partial<PageUsersRequest> = {
    pageNum,
    pageSize: PAGE_SIZE,
    ...(departmentId ? { departmentId } : {}),
    ...(roleId ? { roleId } : {}),
    ...(search ? { keyword: search } : {}),
  };
  const members = useMembers(body);

  const actions =
    canEdit || isCompanyAdmin
      ? (m: MemberView) => (
          <Space size={0}>
            {isCompanyAdmin ? <MemberExportSwitch member={m} /> : null}
            {canEdit ? editActions(m) : null}
          </Space>
        )
      : undefined;

  const editActions = (m: MemberView) => (
    <>
      <Button
        type="link"
        size="small"
        onClick={() => setDialog({ kind: 'assign', member: m })}
        data-testid={`member-assign-${m.userId}`}
      >
        {t('org.personnel.assign')}
      </Button>
      <Button
        type="link"
        size="small"
        onClick={() => setDialog({ kind: 'move', member: m })}
        data-testid={`member-move-${m.userId}`}
      >
        {t('org.personnel.move')}
      </Button>
      {m.legalPerson ? null : (
        <Popconfirm
          title={t('org.personnel.removeConfirm', { name: m.name })}
          okText={t('org.confirm')}
          cancelText={t('org.cancel')}
          onConfirm={() => remove.mutateAsync({ userId: m.userId }).catch(() => {})}
        >
          <Button type="link" size="small" danger data-testid={`member-remove-${m.userId}`}>
            {t('org.personnel.remove')}
          </Button>
        </Popconfirm>
      )}
    </>
  );

  return (
    <div>
      <Typography.Title level={2} data-testid="page-title">
        {t(titleKey)}
      </Typography.Title>
      <Card>
        <Flex gap="middle" wrap style={{ marginBottom: 16 }}>
          <Input.Search
            allowClear
            placeholder={t('org.personnel.search')}
            style={{ maxWidth: 280 }}
            value={keyword}
            onChange={(e) => {
              setKeyword(e.target.value);
              setPageNum(1);
            }}
            data-testid="member-search"
          />
          <DepartmentTreeSelect
            allowClear
            value={departmentId}
            onChange={(value) => {
              setDepartmentId(value);
              setRoleId(undefined);
              setPageNum(1);
            }}
            data-testid="member-filter-department"
            aria-label={t('org.field.department')}
          />
          <RoleSelect
            allowClear
            departmentId={departmentId}
            value={roleId}
            onChange={(value) => {
              setRoleId(value);
              setPageNum(1);
            }}
            data-testid="member-filter-role"
            aria-label={t('org.field.role')}
          />
        </Flex>
        <MemberTable
          members={members.data?.list ?? []}
          loading={members.isFetching}
          total={members.data?.total ?? 0}
          pageNum={pageNum}
          pageSize={PAGE_SIZE}
          onPage={setPageNum}
          actions={actions}
        />
      </Card>
      <AssignRoleModal
        member={dialog?.kind === 'assign' ? dialog.member : null}
        onClose={() => setDialog(null)}
      />
      <MoveUserModal
        member={dialog?.kind === 'move' ? dialog.member : null}
        onClose={() => setDialog(null)}
      />
    </div>
  );
}

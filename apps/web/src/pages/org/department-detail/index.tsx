import { Button, Card, Empty, Flex, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { DataTable } from '../../../components/DataTable';
import { roleName } from '../../../components/labels';
import { useHasAuthTag } from '../../../session/queries';
import { DepartmentInfo } from '../components/DepartmentInfo';
import { MemberTable } from '../components/MemberTable';
import { TagSummary } from '../components/TagSummary';
import { useDepartment, useMembers, useRoles } from '../queries';
import { OrgUrl } from '../urls';

const PAGE_SIZE = 10;

/** One department (`?id=`): its fields, its own members and a summary of its roles. */
export default function DepartmentDetailPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get('id');
  const [pageNum, setPageNum] = useState(1);
  const canRoles = useHasAuthTag('role:view');
  const canPeople = useHasAuthTag('user:view');
  const department = useDepartment(id);
  const members = useMembers(
    { pageNum, pageSize: PAGE_SIZE, departmentId: id ?? '', includeChildren: false },
    !!id && canPeople,
  );
  const roles = useRoles(canRoles ? id : null);

  if (!id) return <Empty description={t('org.detail.missing')} />;
  if (department.isPending) return <Spin />;
  if (!department.data) return <Empty description={t('org.detail.missing')} />;

  return (
    <div>
      <Typography.Title level={2} data-testid="page-title">
        {department.data.name}
      </Typography.Title>
      <Card title={t('org.detail.info')}>
        <DepartmentInfo department={department.data} />
      </Card>
      {canPeople ? (
        <Card
          title={t('org.detail.members')}
          style={{ marginTop: 16 }}
          extra={
            <Button type="link" onClick={() => navigate(OrgUrl.personnel(id))} data-testid="detail-personnel">
              {t('org.tree.personnel')}
            </Button>
          }
        >
          <MemberTable
            members={members.data?.list ?? []}
            loading={members.isFetching}
            total={members.data?.total ?? 0}
            pageNum={pageNum}
            pageSize={PAGE_SIZE}
            onPage={setPageNum}
          />
        </Card>
      ) : null}
      {canRoles ? (
        <Card
          title={t('org.detail.roles')}
          style={{ marginTop: 16 }}
          extra={
            <Button type="link" onClick={() => navigate(OrgUrl.roles(id))} data-testid="detail-roles">
              {t('org.tree.roles')}
            </Button>
          }
        >
          <DataTable
            rowKey="id"
            size="small"
            pagination={false}
            loading={roles.isPending}
            dataSource={roles.data?.list ?? []}
            columns={[
              {
                title: t('org.role.name'),
                dataIndex: 'name',
                key: 'name',
                render: (name: string) => roleName(t, name),
              },
              { title: t('org.role.userCount'), dataIndex: 'userCount', key: 'userCount' },
              {
                title: t('org.role.permissions'),
                dataIndex: 'tags',
                key: 'tags',
                render: (tags: string[]) => <TagSummary tags={tags} />,
              },
            ]}
          />
        </Card>
      ) : null}
      <Flex style={{ marginTop: 16 }}>
        <Button onClick={() => navigate(-1)}>{t('org.back')}</Button>
      </Flex>
    </div>
  );
}

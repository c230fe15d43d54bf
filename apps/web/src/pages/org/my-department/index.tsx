import { Card, Empty, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useHasAuthTag } from '../../../session/queries';
import { DepartmentInfo } from '../components/DepartmentInfo';
import { MemberTable } from '../components/MemberTable';
import { useMembers, useMyDepartment } from '../queries';

/**
 * The caller's own department, open to every member. Its members come with the answer when the
 * server includes them; otherwise they are listed with the personnel call for users who hold
 * user:view (a plain member then sees the department only).
 */
export default function MyDepartmentPage() {
  const { t } = useTranslation();
  const mine = useMyDepartment();
  const canPeople = useHasAuthTag('user:view');
  const included = mine.data?.members;
  const departmentId = mine.data?.id;
  const members = useMembers(
    { pageNum: 1, pageSize: 200, departmentId: departmentId ?? '', includeChildren: false },
    !!departmentId && !included && canPeople,
  );

  const title = (
    <Typography.Title level={2} data-testid="page-title">
      {t('menu.myDepartment')}
    </Typography.Title>
  );
  if (mine.isPending) return <Spin />;
  if (!mine.data) {
    return (
      <div>
        {title}
        <Empty description={t('org.mine.none')} data-testid="my-department-none" />
      </div>
    );
  }
  const list = included ?? members.data?.list;
  return (
    <div>
      {title}
      <Card title={t('org.detail.info')}>
        <DepartmentInfo department={mine.data} />
      </Card>
      {list ? (
        <Card title={t('org.detail.members')} style={{ marginTop: 16 }}>
          <MemberTable members={list} loading={members.isFetching} />
        </Card>
      ) : null}
    </div>
  );
}

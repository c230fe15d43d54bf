import { JoinRequestState, type JoinRequestView } from '@coldchain/contract';
import { Button, Card, Popconfirm, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/DataTable';
import { formatTime } from '../../devices/format';
import { useIncomingAudit, useJoinRequests } from '../queries';

/**
 * Pending applications to join (spec section 4): the person in charge (or a user with user:edit)
 * approves or rejects; the server lists only the applications the caller may decide. The page
 * renders this only for such users.
 */
export function JoinRequests() {
  const { t } = useTranslation();
  const requests = useJoinRequests({ pageNum: 1, pageSize: 50, state: JoinRequestState.Pending });
  const audit = useIncomingAudit();
  const decide = (id: string, approve: boolean) =>
    audit.mutateAsync({ id, approve, remark: '' }).catch(() => {});
  const list = requests.data?.list ?? [];

  return (
    <Card title={t('org.join.title')} style={{ marginTop: 16 }} data-testid="join-requests">
      <DataTable<JoinRequestView>
        rowKey="id"
        size="small"
        loading={requests.isPending}
        dataSource={list}
        pagination={false}
        locale={{ emptyText: t('org.join.none') }}
        onRow={(r) => ({ 'data-testid': `join-row-${r.id}` }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          { title: t('org.member.name'), dataIndex: 'userName', key: 'userName' },
          { title: t('org.member.account'), dataIndex: 'account', key: 'account' },
          { title: t('org.member.department'), dataIndex: 'departmentName', key: 'departmentName' },
          {
            title: t('org.join.remark'),
            dataIndex: 'remark',
            key: 'remark',
            render: (v: string) => v || '-',
          },
          {
            title: t('org.join.time'),
            dataIndex: 'createTime',
            key: 'createTime',
            render: (ts: number) => formatTime(ts),
          },
          {
            title: t('org.actions'),
            key: 'actions',
            render: (_: unknown, r: JoinRequestView) => (
              <Space>
                <Button
                  type="link"
                  size="small"
                  onClick={() => decide(r.id, true)}
                  data-testid={`join-approve-${r.id}`}
                >
                  {t('org.join.approve')}
                </Button>
                <Popconfirm
                  title={t('org.join.rejectConfirm')}
                  okText={t('org.confirm')}
                  cancelText={t('org.cancel')}
                  onConfirm={() => decide(r.id, false)}
                >
                  <Button type="link" size="small" danger data-testid={`join-reject-${r.id}`}>
                    {t('org.join.reject')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
    </Card>
  );
}

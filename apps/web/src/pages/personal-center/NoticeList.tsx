import type { NoticeView } from '@coldchain/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Flex, Popconfirm, Select, type TableColumnsType, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DataTable } from '../../components/DataTable';
import { useNotify } from '../../router/notify';
import { EXPENSES_PATH } from '../billing/links';
import { formatTime } from '../devices/format';
import { deleteNotice, fetchNotices, readAllNotices, readNotice } from './api';
import { PersonalKey, useRefreshNotices } from './queries';

const PAGE_SIZE = 10;
const STATE_COLORS: Record<number, string> = { 1: 'blue', 2: 'default', 3: 'green', 4: 'red' };

/** The caller's notices (spec section 7): filter by state, read one or all, delete; the badge follows. */
export function NoticeList() {
  const { t } = useTranslation();
  const notify = useNotify();
  const refresh = useRefreshNotices();
  const [pageNum, setPageNum] = useState(1);
  const [state, setState] = useState<number | undefined>();
  const body = { pageNum, pageSize: PAGE_SIZE, ...(state ? { state } : {}) };
  const page = useQuery({
    queryKey: [...PersonalKey.notices, body],
    queryFn: () => fetchNotices(body),
    retry: false,
  });

  const act = async (action: () => Promise<unknown>, success?: string) => {
    try {
      const result = await action();
      if (success) notify({ type: 'success', content: success, duration: 3 });
      await refresh();
      return result;
    } catch {
      // Shown by the request wrapper.
      return null;
    }
  };

  const readAll = async () => {
    try {
      const { count } = await readAllNotices();
      notify({ type: 'success', content: t('profile.notices.readAllDone', { count }), duration: 3 });
      await refresh();
    } catch {
      // Shown by the request wrapper.
    }
  };

  const columns: TableColumnsType<NoticeView> = [
    {
      title: t('profile.notices.title'),
      dataIndex: 'title',
      key: 'title',
      render: (title: string, row) => (row.state === 1 ? <strong>{title}</strong> : title),
    },
    {
      title: t('profile.notices.content'),
      dataIndex: 'content',
      key: 'content',
      // The low-credit reminder (modules/delivery) leads to where the credit is seen and topped up.
      render: (content: string, row) =>
        row.kind === 'credit' ? (
          <Flex vertical>
            <span>{content}</span>
            <Link to={EXPENSES_PATH} data-testid="notice-credit-link">
              {t('credits.notice.open')}
            </Link>
          </Flex>
        ) : (
          content
        ),
    },
    {
      title: t('profile.notices.time'),
      dataIndex: 'createTime',
      key: 'createTime',
      render: (time: number) => formatTime(time),
    },
    {
      title: t('profile.notices.state'),
      dataIndex: 'state',
      key: 'state',
      render: (value: number) => (
        <Tag color={STATE_COLORS[value]} data-testid="notice-state">
          {t(`profile.notices.states.${value}`)}
        </Tag>
      ),
    },
    {
      title: t('profile.notices.actions'),
      key: 'actions',
      render: (_, row) => (
        <Flex gap={4}>
          {row.state === 1 && (
            <Button
              size="small"
              type="link"
              data-testid="notice-read"
              onClick={() => void act(() => readNotice(row.id))}
            >
              {t('profile.notices.read')}
            </Button>
          )}
          <Popconfirm
            title={t('profile.notices.deleteConfirm')}
            onConfirm={() => act(() => deleteNotice(row.id), t('profile.notices.deleted'))}
          >
            <Button size="small" type="link" danger data-testid="notice-delete">
              {t('profile.notices.delete')}
            </Button>
          </Popconfirm>
        </Flex>
      ),
    },
  ];

  return (
    <div data-testid="notice-list">
      <Flex gap={8} justify="space-between" style={{ marginBottom: 12 }} wrap>
        <Select
          data-testid="notice-filter"
          aria-label={t('profile.notices.filter')}
          style={{ width: 160 }}
          value={state ?? 0}
          onChange={(value: number) => {
            setState(value === 0 ? undefined : value);
            setPageNum(1);
          }}
          options={[
            { value: 0, label: t('profile.notices.all') },
            ...[1, 2, 3, 4].map((value) => ({ value, label: t(`profile.notices.states.${value}`) })),
          ]}
        />
        <Button onClick={() => void readAll()} data-testid="notice-read-all">
          {t('profile.notices.readAll')}
        </Button>
      </Flex>
      <DataTable<NoticeView>
        rowKey="id"
        size="small"
        loading={page.isPending}
        columns={columns}
        dataSource={page.data?.list ?? []}
        locale={{ emptyText: t('profile.notices.empty') }}
        onRow={(row) => ({ 'data-testid': `notice-row-${row.id}` }) as React.HTMLAttributes<HTMLElement>}
        pagination={{
          current: pageNum,
          pageSize: PAGE_SIZE,
          total: page.data?.total ?? 0,
          showSizeChanger: false,
          onChange: setPageNum,
        }}
      />
    </div>
  );
}

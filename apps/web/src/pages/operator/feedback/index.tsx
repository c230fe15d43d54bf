import type { OperatorFeedbackView } from '@coldchain/contract';
import { Card, Image, Space, type TableColumnsType, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/DataTable';
import { formatTime } from '../../reports/format';
import { useOperatorFeedback } from '../api';

const PAGE_SIZE = 20;

/** `operatorFeedback`: what users sent through the top bar's feedback form, newest first. */
export default function OperatorFeedbackPage() {
  const { t } = useTranslation();
  const [pageNum, setPageNum] = useState(1);
  const feedback = useOperatorFeedback(pageNum, PAGE_SIZE);

  const columns: TableColumnsType<OperatorFeedbackView> = [
    { title: t('operator.feedback.time'), key: 'time', render: (_, f) => formatTime(f.createTime) },
    { title: t('operator.feedback.from'), key: 'from', render: (_, f) => `${f.userName} (${f.account})` },
    { title: t('operator.feedback.company'), key: 'company', render: (_, f) => f.companyName ?? '-' },
    {
      title: t('operator.feedback.content'),
      key: 'content',
      render: (_, f) => (
        <Typography.Paragraph style={{ margin: 0, maxWidth: 420 }}>{f.content}</Typography.Paragraph>
      ),
    },
    {
      title: t('operator.feedback.images'),
      key: 'images',
      render: (_, f) =>
        f.images.length === 0 ? (
          '-'
        ) : (
          <Space wrap>
            {f.images.map((src) => (
              <Image key={src} src={src} width={48} height={48} alt={t('operator.feedback.image')} />
            ))}
          </Space>
        ),
    },
  ];

  return (
    <div>
      <Typography.Title level={2} data-testid="page-title">
        {t('menu.operatorFeedback')}
      </Typography.Title>
      <Card>
        <DataTable<OperatorFeedbackView>
          rowKey="id"
          columns={columns}
          dataSource={feedback.data?.list ?? []}
          loading={feedback.isFetching}
          onRow={(f) => ({ 'data-testid': `feedback-row-${f.id}` }) as object}
          pagination={{
            current: pageNum,
            pageSize: PAGE_SIZE,
            total: feedback.data?.total ?? 0,
            hideOnSinglePage: true,
            showSizeChanger: false,
            onChange: setPageNum,
          }}
        />
      </Card>
    </div>
  );
}

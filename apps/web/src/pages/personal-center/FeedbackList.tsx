import type { FeedbackView } from '@coldchain/contract';
import { useQuery } from '@tanstack/react-query';
import { Card, Empty, Flex, Image, Pagination, Spin, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchSentFeedback, SENT_FEEDBACK_KEY } from '../../api/calls';
import { formatTime } from '../devices/format';

const PAGE_SIZE = 10;

/**
 * "Feedback" (我的反馈): what the user sent through the top bar's feedback dialog, newest first. Cards,
 * not a table, so a long text wraps on a 390 px phone instead of scrolling sideways.
 */
export function FeedbackList() {
  const { t } = useTranslation();
  const [pageNum, setPageNum] = useState(1);
  const page = useQuery({
    queryKey: [...SENT_FEEDBACK_KEY, pageNum],
    queryFn: () => fetchSentFeedback({ pageNum, pageSize: PAGE_SIZE }),
    retry: false,
  });

  const items = page.data?.list ?? [];
  const total = page.data?.total ?? 0;
  return (
    <Spin spinning={page.isFetching}>
      <Flex vertical gap="middle" data-testid="feedback-list">
        {items.length === 0 && !page.isPending ? <Empty description={t('feedback.mine.empty')} /> : null}
        {items.map((item) => (
          <FeedbackItem key={item.id} item={item} />
        ))}
        {total > PAGE_SIZE ? (
          <Pagination
            size="small"
            align="end"
            current={pageNum}
            pageSize={PAGE_SIZE}
            total={total}
            onChange={setPageNum}
            showSizeChanger={false}
          />
        ) : null}
      </Flex>
    </Spin>
  );
}

/** One sent feedback: category, time, the company it was sent in, the text and its images. */
function FeedbackItem({ item }: { item: FeedbackView }) {
  const { t } = useTranslation();
  return (
    <Card size="small" data-testid={`feedback-item-${item.id}`}>
      <Flex vertical gap={4} style={{ minWidth: 0 }}>
        <Flex gap="small" wrap align="center">
          <Tag color="blue" data-testid="feedback-category">
            {t(`feedback.categories.${item.category}`, { defaultValue: String(item.category) })}
          </Tag>
          <Typography.Text type="secondary">{formatTime(item.createTime)}</Typography.Text>
          {item.companyName ? (
            <Typography.Text type="secondary">
              {t('feedback.mine.sentIn', { company: item.companyName })}
            </Typography.Text>
          ) : null}
        </Flex>
        <Typography.Paragraph style={{ marginBottom: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {item.content}
        </Typography.Paragraph>
        {item.images.length > 0 ? (
          <Image.PreviewGroup>
            <Flex gap="small" wrap>
              {item.images.map((src) => (
                <Image key={src} src={src} width={64} height={64} style={{ objectFit: 'cover' }} />
              ))}
            </Flex>
          </Image.PreviewGroup>
        ) : null}
      </Flex>
    </Card>
  );
}

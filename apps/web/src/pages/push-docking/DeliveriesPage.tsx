import { ArrowLeftOutlined } from '@ant-design/icons';
import { Button, Card, Descriptions, Flex, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { usePushDeliveries, usePushUrls } from './api';
import { DELIVERIES_PAGE_SIZE, DeliveriesTable } from './DeliveriesTable';
import { PUSH_LIST_PATH } from './paths';
import { StateTag } from './StateTag';

/** `customizedPushUrl`: one address's deliveries, newest first, with what the receiver answered. */
export default function PushDeliveriesPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const [pageNum, setPageNum] = useState(1);
  const urls = usePushUrls();
  const address = urls.data?.list.find((u) => u.id === id);
  const deliveries = usePushDeliveries({ id, pageNum, pageSize: DELIVERIES_PAGE_SIZE });

  return (
    <div>
      <Flex align="center" gap="small" wrap>
        <Link to={PUSH_LIST_PATH} aria-label={t('pushDock.deliveries.back')}>
          <Button icon={<ArrowLeftOutlined />} aria-label={t('pushDock.deliveries.back')} />
        </Link>
        <Typography.Title level={2} data-testid="page-title" style={{ margin: 0 }}>
          {t('menu.customizedPushUrl')}
        </Typography.Title>
      </Flex>
      <Card style={{ marginTop: 16 }}>
        {address && (
          <Descriptions
            column={{ xs: 1, md: 3 }}
            size="small"
            style={{ marginBottom: 16 }}
            data-testid="push-address"
          >
            <Descriptions.Item label={t('pushDock.list.name')}>{address.name}</Descriptions.Item>
            <Descriptions.Item label={t('pushDock.list.url')}>
              <Typography.Text style={{ wordBreak: 'break-all' }}>{address.url}</Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('pushDock.list.state')}>
              <StateTag id={address.id} state={address.state} />
            </Descriptions.Item>
          </Descriptions>
        )}
        <DeliveriesTable deliveries={deliveries} pageNum={pageNum} onPage={setPageNum} />
      </Card>
    </div>
  );
}

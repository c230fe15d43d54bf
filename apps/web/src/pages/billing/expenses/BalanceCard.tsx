import { Alert, Button, Card, Flex, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useHasAuthTag } from '../../../session/queries';
import { SERVICE_LIST_PATH } from '../links';
import { BuyCreditsDialog } from '../service-list/BuyCreditsDialog';
import { useCreditBalance } from './queries';

/**
 * The company's message credit, what a message costs (spec section 9), and, for members who may
 * top up (spec sections 6 and 8), a credit top-up order, then paid on the top-up records page.
 */
export function BalanceCard() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const balance = useCreditBalance();
  const canTopUp = useHasAuthTag('billing:topUp');
  const [buying, setBuying] = useState(false);
  const value = balance.data?.balance;
  return (
    <Card title={t('credits.balance.title')} data-testid="credit-balance-card">
      <Flex gap="middle" wrap align="center" justify="space-between">
        {value === undefined ? (
          <Skeleton.Input active={balance.isLoading} />
        ) : (
          <Typography.Text data-testid="credit-balance" style={{ fontSize: 32, lineHeight: 1.2 }}>
            {value.toLocaleString()} <small>{t('credits.balance.unit', { count: value })}</small>
          </Typography.Text>
        )}
        {canTopUp ? (
          <Flex vertical gap={4} style={{ maxWidth: 360 }}>
            <Button type="primary" onClick={() => setBuying(true)} data-testid="credit-top-up">
              {t('credits.balance.topUp')}
            </Button>
            <Typography.Text type="secondary">{t('credits.balance.topUpHint')}</Typography.Text>
          </Flex>
        ) : null}
      </Flex>
      {value !== undefined && value <= 0 ? (
        <Alert
          type="warning"
          showIcon
          style={{ marginTop: 16 }}
          title={t('credits.balance.usedUp')}
          data-testid="credit-used-up"
        />
      ) : null}
      <Typography.Paragraph type="secondary" style={{ marginTop: 16, marginBottom: 0 }}>
        {t('credits.balance.rule')}
      </Typography.Paragraph>
      {buying ? (
        <BuyCreditsDialog
          open
          onClose={(orderId) => {
            setBuying(false);
            if (orderId) navigate(SERVICE_LIST_PATH);
          }}
        />
      ) : null}
    </Card>
  );
}

import { Flex, Result, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useHasAuthTag } from '../../../session/queries';
import { OrdersTable } from '../OrdersTable';
import { BalanceCard } from './BalanceCard';
import { LedgerTable } from './LedgerTable';

/**
 * Expense management (menu `addedServices`, spec section 2's user centre; issue 17 item 1): the
 * message credit balance, its ledger, and the company's top-up orders. The page needs
 * `billing:view` (its menu tag); the orders need the top-up permission, as their calls do.
 */
export default function ExpensesPage() {
  const { t } = useTranslation();
  const canTopUp = useHasAuthTag('device:topUp');
  return (
    <Flex vertical gap="middle">
      <Flex justify="space-between" align="center" wrap gap="small">
        <Typography.Title level={2} data-testid="page-title" style={{ margin: 0 }}>
          {t('menu.addedServices')}
        </Typography.Title>
        {/* Every order, its payment and invoice status: the top-up records page (serviceList). */}
        <Link to="/user/addedServices/serviceList" data-testid="service-list-link">
          {t('menu.serviceList')}
        </Link>
      </Flex>
      <BalanceCard />
      <LedgerTable />
      {canTopUp ? (
        <OrdersTable />
      ) : (
        <Result status="info" subTitle={t('credits.orders.noPermission')} data-testid="orders-refused" />
      )}
    </Flex>
  );
}

import type { DeviceView, OrderView } from '@coldchain/contract';
import { App, Button, Flex, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatAmount } from './money';
import { OrdersTable } from './OrdersTable';
import { PriceTable } from './PriceTable';
import { usePriceList } from './queries';
import { TopUpGuard } from './TopUpGuard';

type OrderKind = 'renewal' | 'recovery';

/** An order page (renewal or data recovery): its title, the form behind the top-up right, and its orders. */
export function OrderPage({ menu, kind, children }: { menu: string; kind: OrderKind; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Flex vertical gap="middle">
      <Typography.Title level={2} data-testid="page-title">
        {t(`menu.${menu}`)}
      </Typography.Title>
      <TopUpGuard>
        {children}
        <OrdersTable kind={kind} />
      </TopUpGuard>
    </Flex>
  );
}

/** Places an order and keeps the one placed; the request wrapper shows a refusal itself. */
export function usePlacedOrder<T>(place: (values: T) => Promise<OrderView>) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [placed, setPlaced] = useState<OrderView | null>(null);
  const submit = async (values: T) => {
    try {
      const order = await place(values);
      setPlaced(order);
      void message.success(t('billing.placed', { orderNo: order.orderNo }));
    } catch {
      // The request wrapper showed the server's message.
    }
  };
  return { placed, submit };
}

/** The end of an order form: prices of the selected devices, the approval note, submit, the order placed. */
export function OrderFormFooter({
  kind,
  selected,
  months,
  pending,
  placed,
  submitLabel,
  submitTestId,
}: {
  kind: OrderKind;
  selected: DeviceView[];
  months: number;
  pending: boolean;
  placed: OrderView | null;
  submitLabel: string;
  submitTestId: string;
}) {
  const { t } = useTranslation();
  const prices = usePriceList();
  return (
    <>
      <PriceTable
        prices={prices.data}
        kind={kind}
        rows={selected.map((d) => ({ id: d.id, name: d.name, serial: d.serial, version: d.version }))}
        months={months}
      />
      <Typography.Paragraph type="secondary">{t('billing.approvalNote')}</Typography.Paragraph>
      <Button type="primary" htmlType="submit" loading={pending} data-testid={submitTestId}>
        {submitLabel}
      </Button>
      {placed && (
        <Typography.Paragraph data-testid="order-placed" style={{ marginTop: 16 }}>
          {t('billing.placed', { orderNo: placed.orderNo })} {formatAmount(placed.amount)}
        </Typography.Paragraph>
      )}
    </>
  );
}

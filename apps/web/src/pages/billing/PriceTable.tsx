import type { PriceListView } from '@coldchain/contract';
import { Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/DataTable';
import { formatAmount } from './money';
import { tierPrice } from './tiers';

export interface PriceRow {
  id: string;
  name: string;
  serial: string;
  version: string;
}

/** Each selected device with its tier's price per month, the months and the subtotal; then the total. */
export function PriceTable({
  prices,
  kind,
  rows,
  months,
}: {
  prices: PriceListView | undefined;
  kind: 'renewal' | 'recovery';
  rows: PriceRow[];
  months: number;
}) {
  const { t } = useTranslation();
  const unit = (version: string) => (prices ? tierPrice(prices[kind], version) : 0);
  const total = rows.reduce((sum, r) => sum + unit(r.version) * months, 0);
  return (
    <DataTable<PriceRow>
      rowKey="id"
      size="small"
      pagination={false}
      dataSource={rows}
      style={{ marginBottom: 16 }}
      locale={{ emptyText: t('billing.noDevices') }}
      columns={[
        { title: t('billing.device'), render: (_, r) => `${r.name} (${r.serial})` },
        {
          title: t('billing.tier'),
          render: (_, r) => t(`devices.version.${r.version}`, { defaultValue: r.version }),
        },
        {
          title: t(kind === 'renewal' ? 'billing.pricePerMonth' : 'billing.pricePerRecoveryMonth'),
          render: (_, r) => formatAmount(unit(r.version)),
        },
        { title: t('billing.months'), render: () => months },
        { title: t('billing.subtotal'), render: (_, r) => formatAmount(unit(r.version) * months) },
      ]}
      summary={() => (
        <Table.Summary.Row>
          <Table.Summary.Cell index={0} colSpan={4}>
            {t('billing.total')}
          </Table.Summary.Cell>
          <Table.Summary.Cell index={1}>
            <strong data-testid="order-total">{formatAmount(total)}</strong>
          </Table.Summary.Cell>
        </Table.Summary.Row>
      )}
    />
  );
}

import type { DeliveryListItem } from '@coldchain/contract';
import { Button, Input, Select, Space, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../devices/format';
import { downloadNote } from './api';
import { DeliveryStateTag } from './DeliveryDetailView';

/** The buttons of the download of an order's delivery note and readings. */
export function NoteButtons({ id }: { id: string }) {
  const { t } = useTranslation();
  return (
    <Space wrap size="small">
      <Button
        size="small"
        onClick={() => void downloadNote({ id }, 'pdf').catch(() => undefined)}
        data-testid="delivery-note"
      >
        {t('logistics.delivery.note')}
      </Button>
      <Button size="small" onClick={() => void downloadNote({ id }, 'xlsx').catch(() => undefined)}>
        {t('logistics.delivery.readings')}
      </Button>
    </Space>
  );
}

/** The list filters both order lists share: keyword and state. */
export function OrderFilters({
  onKeyword,
  state,
  onState,
}: {
  onKeyword: (keyword: string) => void;
  state: number | undefined;
  onState: (state: number | undefined) => void;
}) {
  const { t } = useTranslation();
  return (
    <Space wrap>
      <Input.Search
        placeholder={t('logistics.delivery.keywordPlaceholder')}
        aria-label={t('logistics.delivery.keywordPlaceholder')}
        onSearch={(value) => onKeyword(value.trim())}
        style={{ maxWidth: 300 }}
        data-testid="delivery-keyword"
      />
      <Select
        allowClear
        placeholder={t('logistics.delivery.allStates')}
        aria-label={t('logistics.delivery.field.state')}
        value={state}
        onChange={onState}
        style={{ width: 140 }}
        options={[1, 2, 3, 4, 5, 6].map((s) => ({ value: s, label: t(`logistics.delivery.state.${s}`) }))}
      />
    </Space>
  );
}

/** The columns both order lists share. */
export function useOrderColumns(): TableColumnsType<DeliveryListItem> {
  const { t } = useTranslation();
  const f = (key: string) => t(`logistics.delivery.field.${key}`);
  return [
    { title: f('orderNo'), dataIndex: 'orderNo', key: 'orderNo' },
    { title: f('state'), key: 'state', render: (_, d) => <DeliveryStateTag state={d.state} /> },
    { title: f('sender'), key: 'sender', render: (_, d) => d.sender.name },
    { title: f('receiver'), key: 'receiver', render: (_, d) => d.receiver.name },
    {
      title: f('goods'),
      key: 'goods',
      render: (_, d) => d.goods.map((g) => `${g.name} × ${g.quantity}`).join('; '),
    },
    { title: f('tempRange'), key: 'range', render: (_, d) => `${d.tempMin} .. ${d.tempMax}` },
    { title: f('monitors'), key: 'serials', render: (_, d) => d.serials.join(', ') },
    { title: f('vehicle'), key: 'vehicle', render: (_, d) => d.vehicle || '-' },
    { title: f('departTime'), key: 'departTime', render: (_, d) => formatTime(d.departTime) },
    { title: f('arriveTime'), key: 'arriveTime', render: (_, d) => formatTime(d.arriveTime) },
  ];
}

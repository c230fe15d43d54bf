import type { ServiceLapseView } from '@coldchain/contract';
import { Form, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useHasAuthTag } from '../../../session/queries';
import { formatTime } from '../../devices/format';
import { useServiceLapses } from '../queries';

/**
 * Offers the lapsed service periods of the one selected device (docs/decisions.md, "Data
 * recovery"); picking one hands back the span of what is still hidden in it, to pre-fill the
 * recovery period. Fully recovered periods are shown but cannot be picked.
 */
export function LapsePicker({
  deviceIds,
  onPick,
}: {
  deviceIds: string[];
  onPick: (range: [number, number]) => void;
}) {
  const { t } = useTranslation();
  // Reading a device's lapses needs device:view; a top-up member without it types the period.
  const canView = useHasAuthTag('device:view');
  const deviceId = canView && deviceIds.length === 1 ? deviceIds[0] : undefined;
  const lapses = useServiceLapses(deviceId);
  if (!canView || deviceIds.length === 0) return null;
  const list = lapses.data?.lapses ?? [];
  const label = (l: ServiceLapseView) =>
    `${formatTime(l.startTime)} – ${l.open ? t('billing.lapses.now') : formatTime(l.endTime)} · ${t(`billing.lapses.recovery.${l.recovery}`)}`;
  if (!deviceId) {
    return (
      <Form.Item label={t('billing.lapses.label')}>
        <Typography.Text type="secondary" data-testid="lapse-one-device">
          {t('billing.lapses.oneDevice')}
        </Typography.Text>
      </Form.Item>
    );
  }
  const empty = lapses.isSuccess && list.length === 0;
  return (
    <Form.Item
      label={t('billing.lapses.label')}
      extra={t(empty ? 'billing.lapses.none' : 'billing.lapses.hint')}
    >
      <Select<number>
        // A new device starts with nothing picked.
        key={deviceId}
        placeholder={t('billing.lapses.placeholder')}
        loading={lapses.isLoading}
        disabled={list.length === 0}
        options={list.map((l, i) => ({ value: i, label: label(l), disabled: l.hidden.length === 0 }))}
        onChange={(i) => {
          const hidden = list[i]?.hidden ?? [];
          if (hidden.length > 0) onPick([hidden[0]!.startTime, hidden[hidden.length - 1]!.endTime]);
        }}
        data-testid="lapse-picker"
      />
    </Form.Item>
  );
}

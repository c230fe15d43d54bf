import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { DEVICE_STATES } from '../format';
import type { StateCounts } from '../queries';

/** 'all' or a device state 1-6, each with its count from countGroupByState. */
export function StateFilter({
  value,
  counts,
  onChange,
}: {
  value: number | null;
  counts: StateCounts | undefined;
  onChange: (state: number | null) => void;
}) {
  const { t } = useTranslation();
  const total = counts ? Object.values(counts).reduce((sum, n) => sum + n, 0) : undefined;
  const label = (key: string, text: string, count: number | undefined) => (
    <span data-testid={`state-tab-${key}`}>
      {text}
      {count === undefined ? '' : ` (${count})`}
    </span>
  );
  return (
    <Tabs
      activeKey={value === null ? 'all' : String(value)}
      onChange={(key) => onChange(key === 'all' ? null : Number(key))}
      items={[
        { key: 'all', label: label('all', t('devices.state.all'), total) },
        ...DEVICE_STATES.map((state) => ({
          key: String(state),
          label: label(String(state), t(`devices.state.${state}`), counts?.[String(state)]),
        })),
      ]}
    />
  );
}

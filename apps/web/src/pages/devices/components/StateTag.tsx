import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { STATE_COLORS } from '../format';

/** A device state 1-6 as a coloured, translated tag (spec section 4). */
export function StateTag({ state }: { state: number }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATE_COLORS[state] ?? 'default'} data-testid="device-state">
      {t(`devices.state.${state}`, { defaultValue: String(state) })}
    </Tag>
  );
}

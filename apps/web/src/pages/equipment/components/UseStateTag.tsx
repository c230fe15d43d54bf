import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { USE_STATE_COLORS } from '../format';

/** Equipment use state (spec section 4): 1 in use, 2 under service, 3 disposed, 4 standby. */
export function UseStateTag({ state }: { state: number }) {
  const { t } = useTranslation();
  return (
    <Tag color={USE_STATE_COLORS[state] ?? 'default'} data-testid="equipment-use-state">
      {t(`equipment.useState.${state}`, { defaultValue: String(state) })}
    </Tag>
  );
}

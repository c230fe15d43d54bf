import { PushUrlState } from '@coldchain/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const COLORS: Record<number, string> = {
  [PushUrlState.Pending]: 'gold',
  [PushUrlState.Enabled]: 'green',
  [PushUrlState.Stopped]: 'default',
};

/** An address's state: pending (until a test succeeds), enabled, stopped. */
export function StateTag({ id, state }: { id: string; state: number }) {
  const { t } = useTranslation();
  return (
    <Tag color={COLORS[state]} data-testid={`push-state-${id}`}>
      {t(`pushDock.states.${state}`)}
    </Tag>
  );
}

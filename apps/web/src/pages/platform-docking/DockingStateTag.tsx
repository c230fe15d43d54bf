import { DockingState } from '@coldchain/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const COLORS: Record<number, string> = {
  [DockingState.Pending]: 'gold',
  [DockingState.Enabled]: 'green',
  [DockingState.Stopped]: 'default',
};

/** A docking's state (the spec's docking service: pending, enabled, stopped); none yet: not docked. */
export function DockingStateTag({ id, state }: { id: string; state: number | null }) {
  const { t } = useTranslation();
  return (
    <Tag color={state === null ? 'default' : COLORS[state]} data-testid={`dock-state-${id}`}>
      {t(state === null ? 'platformDock.states.none' : `platformDock.states.${state}`)}
    </Tag>
  );
}

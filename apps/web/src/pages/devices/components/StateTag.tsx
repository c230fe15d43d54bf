import { DeviceState } from '@coldchain/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { STATE_COLORS } from '../format';

/**
 * A device state 1-6 as a coloured, translated tag (spec section 4). A device that has never
 * reported (`lastSeenTime` null) is offline to the server but new to its owner: it says
 * "Awaiting first data" rather than "Offline" (issue 20). Callers without the device leave
 * `lastSeenTime` out and get the plain state.
 */
export function StateTag({ state, lastSeenTime }: { state: number; lastSeenTime?: number | null }) {
  const { t } = useTranslation();
  const awaiting = state === DeviceState.Offline && lastSeenTime === null;
  return (
    <Tag
      color={awaiting ? 'blue' : (STATE_COLORS[state] ?? 'default')}
      data-testid="device-state"
      data-awaiting={awaiting || undefined}
    >
      {awaiting ? t('devices.state.awaiting') : t(`devices.state.${state}`, { defaultValue: String(state) })}
    </Tag>
  );
}

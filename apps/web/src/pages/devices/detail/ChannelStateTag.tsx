import { ChannelState } from '@coldchain/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/** Same colours as the device states; a switched-off channel is plainly grey and says so. */
const COLORS: Record<number, string> = {
  [ChannelState.Disabled]: 'default',
  [ChannelState.Normal]: 'green',
  [ChannelState.Alarm]: 'red',
  [ChannelState.Abnormal]: 'orange',
  [ChannelState.Offline]: 'default',
  [ChannelState.Service]: 'blue',
};

/**
 * A channel's state (spec section 4) as a coloured, translated tag. An offline channel that has
 * never had a reading (`updateTime` null) is waiting for its first data, not lost (issue 20).
 */
export function ChannelStateTag({ state, updateTime }: { state: number; updateTime?: number | null }) {
  const { t } = useTranslation();
  const awaiting = state === ChannelState.Offline && updateTime === null;
  return (
    <Tag color={awaiting ? 'blue' : (COLORS[state] ?? 'default')} data-testid="channel-state">
      {awaiting
        ? t('devices.state.awaiting')
        : t(`devices.sensor.state.${state}`, { defaultValue: String(state) })}
    </Tag>
  );
}

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

/** A channel's state (spec section 4) as a coloured, translated tag. */
export function ChannelStateTag({ state }: { state: number }) {
  const { t } = useTranslation();
  return (
    <Tag color={COLORS[state] ?? 'default'} data-testid="channel-state">
      {t(`devices.sensor.state.${state}`, { defaultValue: String(state) })}
    </Tag>
  );
}

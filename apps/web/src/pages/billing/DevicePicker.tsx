import type { DeviceView } from '@coldchain/contract';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDeviceOptions } from './queries';

/** Picks monitors by name or serial; preselected ids (from the list) show even before they load. */
export function DevicePicker({ value, onChange }: { value?: string[]; onChange?: (ids: string[]) => void }) {
  const { t } = useTranslation();
  const devices = useDeviceOptions();
  return (
    <Select
      mode="multiple"
      allowClear
      showSearch
      optionFilterProp="label"
      placeholder={t('billing.pickDevices')}
      loading={devices.isLoading}
      value={value}
      onChange={onChange}
      options={(devices.data?.list ?? []).map((d) => ({ value: d.id, label: `${d.name} (${d.serial})` }))}
      data-testid="device-picker"
    />
  );
}

/** The selected devices as the picker's query knows them. */
export function useSelectedDevices(ids: string[]): DeviceView[] {
  const devices = useDeviceOptions();
  const byId = new Map((devices.data?.list ?? []).map((d) => [d.id, d]));
  return ids.map((id) => byId.get(id)).filter((d): d is DeviceView => d !== undefined);
}

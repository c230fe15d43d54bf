import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { sensorName } from '../../../components/labels';
import { useSensorOptions } from '../api';

/**
 * The sensors that measure a piece of equipment. A sensor belongs to at most one equipment, so
 * those held by another are shown with its name and cannot be picked (the server refuses them too).
 */
export function SensorPicker({
  equipmentId,
  value,
  onChange,
}: {
  equipmentId: string | null;
  value?: string[];
  onChange?: (value: string[]) => void;
}) {
  const { t } = useTranslation();
  const options = useSensorOptions(true);
  return (
    <Select
      mode="multiple"
      allowClear
      showSearch
      optionFilterProp="title"
      loading={options.isLoading}
      value={value ?? []}
      onChange={onChange}
      placeholder={t('equipment.field.sensorsPlaceholder')}
      data-testid="equipment-sensors"
      options={(options.data ?? []).map((s) => {
        const title = `${s.deviceName} (${s.deviceSerial}) · ${sensorName(t, s.name)}`;
        const takenElsewhere = !!s.equipmentId && s.equipmentId !== equipmentId;
        return {
          value: s.id,
          title,
          disabled: takenElsewhere,
          label: takenElsewhere
            ? t('equipment.form.sensorTaken', { sensor: title, equipment: s.equipmentName ?? '' })
            : title,
        };
      })}
    />
  );
}

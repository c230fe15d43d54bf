import { EditOutlined } from '@ant-design/icons';
import type { DeviceView } from '@coldchain/contract';
import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHasAuthTag } from '../../../session/queries';
import { EditDeviceModal } from './EditDeviceModal';

/**
 * Whether to offer editing `device`: the role's `device:edit` tag and the server's word that this
 * device lies in the caller's edit scope (a view-only grant shows the device but not the action).
 */
export function useCanEditDevice(): (device: Pick<DeviceView, 'editable'>) => boolean {
  const hasTag = useHasAuthTag('device:edit');
  return (device) => hasTag && device.editable === true;
}

/** The Edit action of the monitor detail page, with its dialog. */
export function EditDeviceButton({ device }: { device: DeviceView }) {
  const { t } = useTranslation();
  const canEdit = useCanEditDevice();
  const [open, setOpen] = useState(false);
  if (!canEdit(device)) return null;
  return (
    <>
      <Button icon={<EditOutlined />} onClick={() => setOpen(true)} data-testid="edit-device-open">
        {t('devices.edit.open')}
      </Button>
      <EditDeviceModal deviceId={open ? device.id : null} onClose={() => setOpen(false)} />
    </>
  );
}

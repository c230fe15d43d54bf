import type { DeviceView } from '@coldchain/contract';
import { Card, Empty, Spin, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export const LIST_PATH = '/deviceManagement/monitoringDevice';

/** A page about one device (`?id=`): its title, with the device's name once loaded. */
export function DevicePageTitle({ menu, device }: { menu: string; device: DeviceView | undefined }) {
  const { t } = useTranslation();
  return (
    <Typography.Title level={2} data-testid="page-title">
      {device ? t('layout.labelValue', { label: t(`menu.${menu}`), value: device.name }) : t(`menu.${menu}`)}
    </Typography.Title>
  );
}

/**
 * What a one-device page shows before it has its device: no id or an unknown one (with the way
 * back to the list), or a spinner while loading. `null` once the device is there.
 */
export function DevicePagePending({
  menu,
  id,
  failed,
  device,
  noDevice,
  notFound,
  testId,
}: {
  menu: string;
  id: string | null;
  failed: boolean;
  device: DeviceView | undefined;
  /** Message without an id in the address. */
  noDevice: string;
  /** Message for an id the caller cannot see or that does not exist. */
  notFound: string;
  testId: string;
}): ReactNode {
  const { t } = useTranslation();
  if (!id || failed) {
    return (
      <div>
        <DevicePageTitle menu={menu} device={device} />
        <Card>
          <Empty description={id ? notFound : noDevice} data-testid={testId}>
            <Link to={LIST_PATH}>{t('devices.detail.backToList')}</Link>
          </Empty>
        </Card>
      </div>
    );
  }
  if (!device) {
    return (
      <div>
        <DevicePageTitle menu={menu} device={device} />
        <Spin />
      </div>
    );
  }
  return null;
}

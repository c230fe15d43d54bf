import { Card, Descriptions, Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { modeLabel, powerLabel } from '../../../components/labels';
import { useHasAuthTag } from '../../../session/queries';
import { StateTag } from '../components/StateTag';
import { DevicePagePending, DevicePageTitle, LIST_PATH } from '../DevicePageFrame';
import { EditDeviceButton } from '../edit/EditDeviceButton';
import { formatTime } from '../format';
import { useDeviceDetail } from '../queries';
import { CalibrationPanel } from './CalibrationPanel';
import { ParametersPanel } from './ParametersPanel';
import { RenewButtons } from './RenewButtons';
import { ResetKeyButton } from './ResetKeyButton';
import { SensorCards } from './SensorCards';
import { SensorHistory } from './SensorHistory';

/** Monitor detail (`?id=`): header, live sensor cards and the history chart. */
export default function MonitoringDeviceDetailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = params.get('id');
  const detail = useDeviceDetail(id);
  const canEdit = useHasAuthTag('device:edit');
  const device = detail.data;

  if (!id || detail.isError || !device) {
    return (
      <DevicePagePending
        menu="monitoringDeviceDetail"
        id={id}
        failed={detail.isError}
        device={device}
        noDevice={t('devices.detail.noDevice')}
        notFound={t('devices.detail.notFound')}
        testId="device-empty"
      />
    );
  }

  const version = t(`devices.version.${device.version}`, { defaultValue: device.version });
  return (
    <Flex vertical gap="middle">
      <DevicePageTitle menu="monitoringDeviceDetail" device={device} />
      <Card
        title={
          <Flex gap="small" align="center">
            <span data-testid="device-name">{device.name}</span>
            <StateTag state={device.state} lastSeenTime={device.lastSeenTime} />
          </Flex>
        }
        extra={
          <Flex gap="small" align="center" wrap>
            <EditDeviceButton device={device} />
            <RenewButtons deviceId={device.id} />
            {canEdit && (
              <Link
                to={`/deviceManagement/monitoringDevice/openInterface?id=${encodeURIComponent(device.id)}`}
                data-testid="open-interface-link"
              >
                {t('map.openInterface.link')}
              </Link>
            )}
            {canEdit && <ResetKeyButton deviceId={device.id} />}
          </Flex>
        }
      >
        <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 4 }} data-testid="device-header">
          <Descriptions.Item label={t('devices.detail.serial')}>
            <span data-testid="device-serial">{device.serial}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('devices.detail.model')}>{device.model}</Descriptions.Item>
          <Descriptions.Item label={t('devices.detail.version')}>{version}</Descriptions.Item>
          <Descriptions.Item label={t('devices.detail.lastSeen')}>
            {formatTime(device.lastSeenTime)}
          </Descriptions.Item>
          <Descriptions.Item label={t('devices.detail.battery')}>
            {device.battery === null ? '-' : `${device.battery}%`}
          </Descriptions.Item>
          <Descriptions.Item label={t('devices.detail.power')}>
            {powerLabel(t, device.power)}
          </Descriptions.Item>
          <Descriptions.Item label={t('devices.detail.mode')}>{modeLabel(t, device.mode)}</Descriptions.Item>
          <Descriptions.Item label={t('devices.detail.expireTime')}>
            {formatTime(device.expireTime)}
          </Descriptions.Item>
        </Descriptions>
      </Card>
      <ParametersPanel device={device} canEdit={canEdit} />
      <CalibrationPanel deviceId={device.id} canEdit={canEdit} />
      <Card title={t('devices.detail.sensors')}>
        <SensorCards sensors={device.sensors} editable={canEdit && device.editable === true} />
      </Card>
      {device.sensors.length > 0 && (
        // The chart's "now" moves with each refetch of the device, so new readings come into view.
        <SensorHistory key={device.id} sensors={device.sensors} now={detail.dataUpdatedAt} />
      )}
      <Link to={LIST_PATH}>{t('devices.detail.backToList')}</Link>
    </Flex>
  );
}

import { EnvironmentOutlined, WarningOutlined } from '@ant-design/icons';
import type { DeviceView, MapEquipmentView } from '@coldchain/contract';
import { Alert, App, Card, Col, Descriptions, Empty, Flex, Input, List, Row, Spin, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { sensorName } from '../../components/labels';
import { useClientConfig, useHasAuthTag } from '../../session/queries';
import { StateTag } from '../devices/components/StateTag';
import { DEVICE_STATES, formatSensorValue, formatTime } from '../devices/format';
import { detailUrl } from '../devices/paths';
import { MARKER_COLORS, MapCanvas } from './MapCanvas';
import { EquipmentLegend, EquipmentList, SelectedEquipment } from './MapEquipmentPanel';
import { placeEquipment, useMapEquipment } from './map-equipment';
import { districtOnly, hasPosition, MAP_DEVICE_LIMIT, useMapDevices } from './map-queries';

/**
 * Map mode (monitoring): every visible device as a marker coloured by its state at its last GPS
 * position; devices without one are listed beside the map with the reason (spec section 8).
 * With `equipment:view`, the equipment each monitor measures is drawn beside it (issue 14).
 */
export default function MapModePage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const devices = useMapDevices();
  const tileUrl = useClientConfig().data?.mapTileUrl ?? '';
  const [keyword, setKeyword] = useState('');
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [focus, setFocus] = useState<{ id: string; at: number } | null>(null);
  const canSeeEquipment = useHasAuthTag('equipment:view');
  const equipment = useMapEquipment(canSeeEquipment);
  const [selectedEquipmentId, setSelectedEquipmentId] = useState<string | null>(null);

  const all = devices.data?.list ?? [];
  const selected = all.find((d) => d.id === selectedId) ?? null;
  const counts = useMemo(() => {
    const byState: Record<number, number> = {};
    for (const d of all) byState[d.state] = (byState[d.state] ?? 0) + 1;
    return byState;
  }, [all]);
  const shown = useMemo(() => {
    const k = keyword.trim().toLowerCase();
    return k
      ? all.filter((d) => d.name.toLowerCase().includes(k) || d.serial.toLowerCase().includes(k))
      : all;
  }, [all, keyword]);
  const unlocated = shown.filter((d) => !hasPosition(d));
  const allEquipment = equipment.data?.list ?? [];
  const shownEquipment = useMemo(() => {
    const k = keyword.trim().toLowerCase();
    return k
      ? allEquipment.filter((e) => e.name.toLowerCase().includes(k) || e.serial.toLowerCase().includes(k))
      : allEquipment;
  }, [allEquipment, keyword]);
  const placement = useMemo(() => placeEquipment(shownEquipment, all), [shownEquipment, all]);
  const selectedEquipment = allEquipment.find((e) => e.id === selectedEquipmentId) ?? null;

  const selectDevice = (device: DeviceView) => {
    setSelectedId(device.id);
    setSelectedEquipmentId(null);
  };
  /** Picking equipment shows its card and centres on the monitor it is drawn beside, if any. */
  const pickEquipment = (item: MapEquipmentView) => {
    setSelectedEquipmentId(item.id);
    setSelectedId(null);
    const beside = placement.besideOf.get(item.id);
    if (beside) setFocus({ id: beside.id, at: Date.now() });
  };

  /** Picking a device in the list locates it on the map, or says why it cannot. */
  const locate = (device: DeviceView) => {
    selectDevice(device);
    if (!hasPosition(device)) {
      void message.warning(t('map.mapMode.noGps'));
      return;
    }
    setFocus({ id: device.id, at: Date.now() });
    if (districtOnly(device)) void message.info(t('map.mapMode.districtOnly'));
  };

  return (
    <div>
      <Typography.Title level={2} data-testid="page-title">
        {t('menu.mapMode')}
      </Typography.Title>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={17}>
          <Card size="small">
            <Flex vertical gap="small">
              {!tileUrl && (
                <Typography.Text type="secondary" data-testid="map-no-tiles">
                  {t('map.mapMode.noTiles')}
                </Typography.Text>
              )}
              {devices.data && devices.data.total > MAP_DEVICE_LIMIT && (
                <Alert type="info" showIcon title={t('map.mapMode.truncated', { count: MAP_DEVICE_LIMIT })} />
              )}
              {devices.isPending ? (
                <Spin />
              ) : (
                <MapCanvas
                  devices={shown}
                  tileUrl={tileUrl}
                  selectedId={selectedId}
                  focus={focus}
                  onSelect={selectDevice}
                  equipmentByDevice={canSeeEquipment ? placement.byDevice : undefined}
                  selectedEquipmentId={selectedEquipmentId}
                  onSelectEquipment={pickEquipment}
                />
              )}
              <Flex gap="middle" wrap data-testid="map-legend">
                {DEVICE_STATES.map((state) => (
                  <Flex key={state} gap={4} align="center" data-testid={`map-legend-${state}`}>
                    <span
                      style={{
                        width: 10,
                        height: 10,
                        borderRadius: 5,
                        background: MARKER_COLORS[state],
                        display: 'inline-block',
                      }}
                    />
                    {t(`devices.state.${state}`)} ({counts[state] ?? 0})
                  </Flex>
                ))}
                {canSeeEquipment && <EquipmentLegend list={allEquipment} />}
              </Flex>
              {selected && <SelectedDevice device={selected} />}
              {selectedEquipment && (
                <SelectedEquipment
                  item={selectedEquipment}
                  devices={all}
                  beside={placement.besideOf.get(selectedEquipment.id)}
                />
              )}
            </Flex>
          </Card>
        </Col>
        <Col xs={24} lg={7}>
          <Card size="small" title={t('map.mapMode.devices', { count: all.length })}>
            <Input.Search
              allowClear
              placeholder={t('map.mapMode.search')}
              onChange={(e) => setKeyword(e.target.value)}
              data-testid="map-search"
              style={{ marginBottom: 8 }}
            />
            <List<DeviceView>
              size="small"
              dataSource={shown}
              locale={{ emptyText: <Empty description={t('map.mapMode.empty')} /> }}
              pagination={shown.length > 20 ? { pageSize: 20, size: 'small' } : false}
              renderItem={(d) => (
                <List.Item
                  key={d.id}
                  onClick={() => locate(d)}
                  style={{ cursor: 'pointer', background: d.id === selectedId ? '#e6f4ff' : undefined }}
                  data-testid={`map-item-${d.id}`}
                >
                  <Flex vertical style={{ width: '100%' }}>
                    <Flex justify="space-between" align="center" gap="small">
                      <span>
                        {hasPosition(d) ? <EnvironmentOutlined /> : <WarningOutlined />} {d.name}
                      </span>
                      <StateTag state={d.state} lastSeenTime={d.lastSeenTime} />
                    </Flex>
                    <Typography.Text type="secondary">{d.serial}</Typography.Text>
                    {!hasPosition(d) && (
                      <Typography.Text type="warning" data-testid={`map-no-gps-${d.id}`}>
                        {t('map.mapMode.noGps')}
                      </Typography.Text>
                    )}
                  </Flex>
                </List.Item>
              )}
            />
            {unlocated.length > 0 && (
              <Typography.Text type="secondary" data-testid="map-unlocated-count">
                {t('map.mapMode.unlocated', { count: unlocated.length })}
              </Typography.Text>
            )}
          </Card>
          {canSeeEquipment && (
            <EquipmentList
              list={shownEquipment}
              total={equipment.data?.total ?? 0}
              placement={placement}
              selectedId={selectedEquipmentId}
              onPick={pickEquipment}
            />
          )}
        </Col>
      </Row>
    </div>
  );
}

function SelectedDevice({ device }: { device: DeviceView }) {
  const { t } = useTranslation();
  const location = [device.region, device.address].filter((part) => part.trim()).join(' ');
  return (
    <Card
      size="small"
      data-testid="map-selected"
      title={
        <Flex gap="small" align="center">
          <span>{device.name}</span>
          <StateTag state={device.state} lastSeenTime={device.lastSeenTime} />
        </Flex>
      }
      extra={<Link to={detailUrl(device.id)}>{t('map.mapMode.openDetail')}</Link>}
    >
      {!hasPosition(device) && (
        <Alert type="warning" showIcon title={t('map.mapMode.noGps')} data-testid="map-selected-no-gps" />
      )}
      {districtOnly(device) && (
        <Alert
          type="info"
          showIcon
          title={t('map.mapMode.districtOnly')}
          data-testid="map-selected-district"
        />
      )}
      <Descriptions size="small" column={{ xs: 1, md: 2 }} style={{ marginTop: 8 }}>
        <Descriptions.Item label={t('map.mapMode.serial')}>{device.serial}</Descriptions.Item>
        <Descriptions.Item label={t('map.mapMode.lastSeen')}>
          {formatTime(device.lastSeenTime)}
        </Descriptions.Item>
        <Descriptions.Item label={t('map.mapMode.location')}>
          <span data-testid="map-selected-location">{location || '-'}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('map.mapMode.coordinates')}>
          {hasPosition(device) ? `${device.lat.toFixed(5)}, ${device.lng.toFixed(5)}` : '-'}
        </Descriptions.Item>
        {device.sensors.map((s) => (
          <Descriptions.Item key={s.id} label={sensorName(t, s.name)}>
            {formatSensorValue(s)}
          </Descriptions.Item>
        ))}
      </Descriptions>
    </Card>
  );
}

import type { DeviceView, MapEquipmentView } from '@coldchain/contract';
import { Alert, Card, Descriptions, Empty, Flex, List, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pauseTitle } from '../devices/detail/EquipmentPauseNote';
import { equipmentDetailUrl } from '../equipment/paths';
import { EQUIPMENT_COLOR, EQUIPMENT_PAUSED_COLOR } from './EquipmentBadges';
import type { EquipmentPlacement } from './map-equipment';

function Square({ color }: { color: string }) {
  return (
    <span style={{ width: 10, height: 10, borderRadius: 2, background: color, display: 'inline-block' }} />
  );
}

/** Legend entries for the equipment squares, with their counts. */
export function EquipmentLegend({ list }: { list: MapEquipmentView[] }) {
  const { t } = useTranslation();
  const paused = list.filter((e) => e.alarmsPaused).length;
  return (
    <>
      <Flex gap={4} align="center" data-testid="map-legend-equipment">
        <Square color={EQUIPMENT_COLOR} />
        {t('map.equipment.legend', { count: list.length - paused })}
      </Flex>
      <Flex gap={4} align="center" data-testid="map-legend-equipment-paused">
        <Square color={EQUIPMENT_PAUSED_COLOR} />
        {t('map.equipment.legendPaused', { count: paused })}
      </Flex>
    </>
  );
}

const locationOf = (item: { region: string; address: string }) =>
  [item.region, item.address].filter((part) => part.trim()).join(' ');

/**
 * The equipment beside the device list: each entry opens the equipment's detail page; picking it
 * locates the monitor it is drawn beside, or says that no located monitor measures it.
 */
export function EquipmentList({
  list,
  total,
  placement,
  selectedId,
  onPick,
}: {
  list: MapEquipmentView[];
  total: number;
  placement: EquipmentPlacement;
  selectedId: string | null;
  onPick: (item: MapEquipmentView) => void;
}) {
  const { t } = useTranslation();
  return (
    <Card
      size="small"
      title={t('map.equipment.listTitle', { count: total })}
      style={{ marginTop: 16 }}
      data-testid="map-equipment-list"
    >
      <List<MapEquipmentView>
        size="small"
        dataSource={list}
        locale={{ emptyText: <Empty description={t('map.equipment.empty')} /> }}
        pagination={list.length > 20 ? { pageSize: 20, size: 'small' } : false}
        renderItem={(item) => {
          const beside = placement.besideOf.get(item.id);
          return (
            <List.Item
              key={item.id}
              onClick={() => onPick(item)}
              style={{ cursor: 'pointer', background: item.id === selectedId ? '#f9f0ff' : undefined }}
              data-testid={`map-equipment-item-${item.id}`}
            >
              <Flex vertical style={{ width: '100%' }}>
                <Flex justify="space-between" align="center" gap="small">
                  <Link to={equipmentDetailUrl(item.id)} onClick={(e) => e.stopPropagation()}>
                    {item.name}
                  </Link>
                  {item.alarmsPaused && <Tag color="default">{t('map.equipment.paused')}</Tag>}
                </Flex>
                <Typography.Text type="secondary">
                  {item.serial} · {item.typeName}
                </Typography.Text>
                {beside ? (
                  <Typography.Text type="secondary" data-testid={`map-equipment-beside-${item.id}`}>
                    {t('map.equipment.beside', { device: beside.name })}
                  </Typography.Text>
                ) : (
                  <Typography.Text type="warning" data-testid={`map-equipment-unplaced-${item.id}`}>
                    {t('map.equipment.notPlaced')}
                  </Typography.Text>
                )}
              </Flex>
            </List.Item>
          );
        }}
      />
    </Card>
  );
}

/** The card of the equipment picked on the map or in the list. */
export function SelectedEquipment({
  item,
  devices,
  beside,
}: {
  item: MapEquipmentView;
  devices: DeviceView[];
  beside: DeviceView | undefined;
}) {
  const { t } = useTranslation();
  const title = pauseTitle(t, item);
  const names = item.deviceIds.map((id) => devices.find((d) => d.id === id)?.name ?? id).join(', ');
  return (
    <Card
      size="small"
      data-testid="map-selected-equipment"
      title={
        <Flex gap="small" align="center">
          <Square color={item.alarmsPaused ? EQUIPMENT_PAUSED_COLOR : EQUIPMENT_COLOR} />
          <span>{item.name}</span>
        </Flex>
      }
      extra={
        <Link to={equipmentDetailUrl(item.id)} data-testid="map-selected-equipment-open">
          {t('map.equipment.openDetail')}
        </Link>
      }
    >
      {title && <Alert type="warning" showIcon title={title} data-testid="map-selected-equipment-paused" />}
      {!beside && (
        <Alert type="info" showIcon title={t('map.equipment.notPlaced')} style={{ marginTop: 8 }} />
      )}
      <Descriptions size="small" column={{ xs: 1, md: 2 }} style={{ marginTop: 8 }}>
        <Descriptions.Item label={t('map.equipment.serial')}>{item.serial}</Descriptions.Item>
        <Descriptions.Item label={t('map.equipment.type')}>{item.typeName}</Descriptions.Item>
        <Descriptions.Item label={t('map.equipment.useState')}>
          {t(`equipment.useState.${item.useState}`)}
        </Descriptions.Item>
        <Descriptions.Item label={t('map.equipment.location')}>{locationOf(item) || '-'}</Descriptions.Item>
        <Descriptions.Item label={t('map.equipment.monitors')}>
          <span data-testid="map-selected-equipment-monitors">{names || '-'}</span>
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}

import { EditOutlined, FilePdfOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Col, Descriptions, Empty, Flex, Row, Spin, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { type FileResponse, request } from '../../../api/request';
import { sensorName } from '../../../components/labels';
import { ReadingsReportModal } from '../../../components/ReadingsReportModal';
import { useHasAuthTag } from '../../../session/queries';
import { useCanExport } from '../../../signature/SignPasswordField';
import { detailUrl as monitorDetailUrl } from '../../devices/paths';
import { useEquipmentDetail, useEquipmentTypes } from '../api';
import { displayValue } from '../attribute-rules';
import { UseStateTag } from '../components/UseStateTag';
import { formatNumber, formatTime } from '../format';
import { EquipmentFormModal } from '../list/EquipmentFormModal';
import { EQUIPMENT_LIST_PATH } from '../paths';
import { type BoundSensor, type Equipment, UseState } from '../types';
import { LabelCard } from './LabelCard';
import { RecordTimeline } from './RecordTimeline';
import { StatsCard } from './StatsCard';

function Title({ equipment }: { equipment?: Equipment }) {
  const { t } = useTranslation();
  return (
    <Typography.Title level={2} data-testid="page-title">
      {t('menu.equipmentDetail')}
      {equipment ? `: ${equipment.name}` : ''}
    </Typography.Title>
  );
}

/** Equipment detail (`?id=`): archive, sensors, statistics, label and the lifecycle timeline. */
export default function EquipmentDetailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = params.get('id');
  const detail = useEquipmentDetail(id);
  const types = useEquipmentTypes();
  const canEdit = useHasAuthTag('equipment:edit');
  const exportAllowed = useCanExport();
  const mayExportData = useHasAuthTag('device:export');
  const [editing, setEditing] = useState(false);
  const [reporting, setReporting] = useState(false);
  const equipment = detail.data;

  if (!id || detail.isError) {
    return (
      <div>
        <Title />
        <Card>
          <Empty
            description={t(id ? 'equipment.detail.notFound' : 'equipment.detail.noId')}
            data-testid="equipment-empty"
          >
            <Link to={EQUIPMENT_LIST_PATH}>{t('equipment.common.backToList')}</Link>
          </Empty>
        </Card>
      </div>
    );
  }
  if (!equipment) {
    return (
      <div>
        <Title />
        <Spin />
      </div>
    );
  }

  const type = equipment.type ?? types.data?.list.find((ty) => ty.id === equipment.typeId);
  const disposed = equipment.useState === UseState.Disposed;
  const issues = equipment.attributeIssues ?? [];
  return (
    <Flex vertical gap="middle">
      <Title equipment={equipment} />
      {reporting && (
        <ReadingsReportModal
          what={equipment.name}
          testId="equipment-report"
          create={(period) =>
            request<FileResponse>('/api/report/equipmentReport', { ...period, equipmentId: equipment.id })
          }
          onClose={() => setReporting(false)}
        />
      )}
      {equipment.alarmSuppressed && (
        <Alert
          type="info"
          showIcon
          title={t('equipment.detail.alarmSuppressed')}
          data-testid="equipment-suppressed"
        />
      )}
      {issues.length > 0 && (
        <Alert
          type="warning"
          showIcon
          data-testid="equipment-attribute-issues"
          title={t('equipment.detail.issuesTitle')}
          description={
            <ul style={{ margin: 0, paddingInlineStart: 20 }}>
              {issues.map((issue) => (
                <li key={issue.attributeId}>
                  {issue.name}: {issue.message}
                </li>
              ))}
            </ul>
          }
        />
      )}
      <Card
        title={
          <Flex gap="small" align="center" wrap>
            <span data-testid="equipment-name">{equipment.name}</span>
            <UseStateTag state={equipment.useState} />
          </Flex>
        }
        extra={
          <Flex gap="small" wrap>
            {mayExportData && exportAllowed && equipment.sensors.length > 0 && (
              <Button
                icon={<FilePdfOutlined />}
                onClick={() => setReporting(true)}
                data-testid="equipment-report-open"
              >
                {t('common.report.open')}
              </Button>
            )}
            {canEdit && !disposed && (
              <Button
                icon={<EditOutlined />}
                onClick={() => setEditing(true)}
                data-testid="equipment-edit-open"
              >
                {t('equipment.common.edit')}
              </Button>
            )}
          </Flex>
        }
      >
        <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 3 }} data-testid="equipment-header">
          <Descriptions.Item label={t('equipment.field.serial')}>
            <span data-testid="equipment-serial">{equipment.serial}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('equipment.field.type')}>
            {equipment.typeName || type?.name || '-'}
          </Descriptions.Item>
          <Descriptions.Item label={t('equipment.field.department')}>
            {equipment.departmentName || '-'}
          </Descriptions.Item>
          <Descriptions.Item label={t('equipment.field.group')}>
            {equipment.groupName || '-'}
          </Descriptions.Item>
          <Descriptions.Item label={t('equipment.field.region')}>{equipment.region || '-'}</Descriptions.Item>
          <Descriptions.Item label={t('equipment.field.address')}>
            {equipment.address || '-'}
          </Descriptions.Item>
          <Descriptions.Item label={t('equipment.field.nextCalibration')}>
            {formatTime(equipment.nextCalibrationTime)}
          </Descriptions.Item>
          <Descriptions.Item label={t('equipment.field.remarks')}>
            {equipment.remarks || '-'}
          </Descriptions.Item>
        </Descriptions>
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <Card title={t('equipment.detail.archive')} style={{ height: '100%' }}>
            {type && type.attributes.length > 0 ? (
              <Descriptions size="small" column={1} data-testid="equipment-archive">
                {type.attributes.map((attribute) => {
                  const value = attribute.id ? equipment.attributes[attribute.id] : undefined;
                  const text = displayValue(attribute, value);
                  return (
                    <Descriptions.Item key={attribute.id ?? attribute.name} label={attribute.name}>
                      {attribute.kind === 'attachment' && typeof value === 'string' && value ? (
                        <a href={value} target="_blank" rel="noreferrer">
                          {t('equipment.attribute.viewFile')}
                        </a>
                      ) : (
                        text
                      )}
                    </Descriptions.Item>
                  );
                })}
              </Descriptions>
            ) : (
              <Empty description={t('equipment.detail.noAttributes')} />
            )}
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <LabelCard equipment={equipment} />
        </Col>
      </Row>
      <Card title={t('equipment.detail.sensors')}>
        <Table<BoundSensor>
          size="small"
          rowKey="id"
          pagination={false}
          scroll={{ x: 'max-content' }}
          dataSource={equipment.sensors}
          locale={{ emptyText: t('equipment.detail.noSensors') }}
          data-testid="equipment-sensors-table"
          columns={[
            {
              title: t('equipment.detail.monitor'),
              key: 'device',
              render: (_, s) => (
                <Link to={monitorDetailUrl(s.deviceId)}>
                  {s.deviceName ?? ''} ({s.deviceSerial ?? ''})
                </Link>
              ),
            },
            { title: t('equipment.detail.sensor'), key: 'name', render: (_, s) => sensorName(t, s.name) },
            {
              title: t('equipment.detail.value'),
              key: 'value',
              render: (_, s) => formatNumber(s.value, s.unit),
            },
            {
              title: t('equipment.detail.updated'),
              key: 'updateTime',
              render: (_, s) => formatTime(s.updateTime),
            },
          ]}
        />
      </Card>
      <StatsCard equipmentId={equipment.id} />
      <RecordTimeline
        equipmentId={equipment.id}
        canEdit={canEdit}
        disposed={disposed}
        canExport={exportAllowed}
      />
      <Link to={EQUIPMENT_LIST_PATH}>{t('equipment.common.backToList')}</Link>
      <EquipmentFormModal open={editing} id={equipment.id} onClose={() => setEditing(false)} />
    </Flex>
  );
}

import { DownOutlined, ExportOutlined } from '@ant-design/icons';
import { Button, Card, Dropdown, Empty, Flex, Select, Space, Spin, Tag, Timeline, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EQUIPMENT_PATHS, useEquipmentRecords } from '../api';
import { formatDate, formatTime, splitMinutes } from '../format';
import { ExportEquipmentModal } from '../list/ExportEquipmentModal';
import { type EquipmentRecord, RECORD_KINDS, type RecordKind } from '../types';
import { ADDABLE_KINDS, type AddableKind, RecordModal } from './RecordModal';

const KIND_COLORS: Record<RecordKind, string> = {
  calibration: 'blue',
  repair: 'orange',
  maintenance: 'cyan',
  scrap: 'red',
  transfer: 'purple',
  patrol: 'green',
};

/** The kind's own facts, one line each; who and when are shown for every kind. */
function RecordFacts({ record }: { record: EquipmentRecord }) {
  const { t } = useTranslation();
  const line = (key: string, value: string | null | undefined) =>
    value ? (
      <div key={key}>
        <Typography.Text type="secondary">{t(`equipment.record.field.${key}`)}: </Typography.Text>
        {value}
      </div>
    ) : null;
  switch (record.kind) {
    case 'calibration':
      return (
        <>
          {line('institution', record.institution)}
          {line('nextDueAt', formatDate(record.nextDueAt))}
          {record.certificateUrl && (
            <a
              href={record.certificateUrl}
              target="_blank"
              rel="noreferrer"
              data-testid="timeline-certificate"
            >
              {t('equipment.record.viewCertificate')}
            </a>
          )}
        </>
      );
    case 'repair':
      return (
        <>
          {line('unit', record.unit)}
          {line('person', record.person)}
          {line('cause', record.cause)}
          {line(
            'repaired',
            record.repaired
              ? `${t('equipment.record.yes')} (${formatTime(record.repairTime)})`
              : t('equipment.record.no'),
          )}
        </>
      );
    case 'maintenance': {
      const { hours, minutes } = splitMinutes(record.durationMinutes ?? 0);
      return (
        <>
          {record.preventive && <Tag>{t('equipment.record.field.preventive')}</Tag>}
          {line('unit', record.unit)}
          {line('person', record.person)}
          {line('endTime', formatTime(record.endTime))}
          {line('duration', t('equipment.record.duration', { hours, minutes }))}
          {line('remarks', record.remarks)}
        </>
      );
    }
    case 'scrap':
      return (
        <>
          {line('scrapType', t(`equipment.record.scrapType.${record.scrapType ?? 'scrap'}`))}
          {line('remarks', record.remarks)}
        </>
      );
    case 'transfer':
      return (
        <>
          {line('fromDepartment', record.fromDepartmentName || '-')}
          {line('toDepartment', record.toDepartmentName || '-')}
          {line('operator', record.operator ?? record.createdByName)}
          {line('remarks', record.remarks)}
        </>
      );
    case 'patrol':
      return (
        <>
          {line('person', record.person)}
          {line(
            'reading',
            record.reading === null || record.reading === undefined ? null : String(record.reading),
          )}
          {line('condition', record.condition ? t(`equipment.patrol.condition.${record.condition}`) : null)}
          {line('remarks', record.remarks)}
          {record.photoUrl && (
            <a href={record.photoUrl} target="_blank" rel="noreferrer">
              {t('equipment.patrol.photo')}
            </a>
          )}
        </>
      );
    default:
      return null;
  }
}

/**
 * The equipment's whole lifecycle as one timeline (calibrations, repairs, maintenance, transfers,
 * patrols, the scrap), newest first, with add and export. Records are never edited or deleted.
 */
export function RecordTimeline({
  equipmentId,
  canEdit,
  disposed,
  canExport,
}: {
  equipmentId: string;
  canEdit: boolean;
  disposed: boolean;
  canExport: boolean;
}) {
  const { t } = useTranslation();
  const [kind, setKind] = useState<RecordKind | undefined>();
  const [adding, setAdding] = useState<AddableKind | null>(null);
  const [exporting, setExporting] = useState(false);
  const records = useEquipmentRecords(equipmentId, kind);
  const list = records.data?.list ?? [];

  return (
    <Card
      title={t('equipment.record.title')}
      data-testid="equipment-timeline"
      extra={
        <Space wrap>
          <Select
            allowClear
            size="small"
            style={{ minWidth: 130 }}
            placeholder={t('equipment.record.allKinds')}
            value={kind}
            onChange={setKind}
            options={RECORD_KINDS.map((k) => ({ value: k, label: t(`equipment.record.kind.${k}`) }))}
            data-testid="timeline-kind-filter"
          />
          {canExport && (
            <Button
              size="small"
              icon={<ExportOutlined />}
              onClick={() => setExporting(true)}
              data-testid="records-export-open"
            >
              {t('equipment.export.open')}
            </Button>
          )}
          {canEdit && !disposed && (
            <Dropdown
              trigger={['click']}
              menu={{
                items: ADDABLE_KINDS.map((k) => ({
                  key: k,
                  danger: k === 'scrap',
                  label: <span data-testid={`record-add-${k}`}>{t(`equipment.record.addTitle.${k}`)}</span>,
                })),
                onClick: ({ key }) => setAdding(key as AddableKind),
              }}
            >
              <Button size="small" type="primary" data-testid="record-add-open">
                {t('equipment.record.add')} <DownOutlined />
              </Button>
            </Dropdown>
          )}
        </Space>
      }
    >
      {records.isLoading ? (
        <Spin />
      ) : list.length === 0 ? (
        <Empty description={t('equipment.record.empty')} />
      ) : (
        <Timeline
          items={list.map((record) => ({
            key: record.id,
            color: KIND_COLORS[record.kind],
            content: (
              <Flex vertical gap={2} data-testid={`timeline-item-${record.kind}`}>
                <Space wrap size="small">
                  <Tag color={KIND_COLORS[record.kind]}>{t(`equipment.record.kind.${record.kind}`)}</Tag>
                  <Typography.Text strong>{formatTime(record.time)}</Typography.Text>
                  <Typography.Text type="secondary">
                    {t('equipment.record.by', {
                      name: record.createdByName || '-',
                      time: formatTime(record.createTime),
                    })}
                  </Typography.Text>
                </Space>
                <RecordFacts record={record} />
              </Flex>
            ),
          }))}
        />
      )}
      {adding && <RecordModal equipmentId={equipmentId} kind={adding} onClose={() => setAdding(null)} />}
      <ExportEquipmentModal
        open={exporting}
        onClose={() => setExporting(false)}
        path={EQUIPMENT_PATHS.exportRecords}
        body={{ equipmentId, ...(kind ? { kind } : {}) }}
        fileName="equipment-records"
        title={t('equipment.export.recordsTitle')}
        testId="records-export"
      />
    </Card>
  );
}

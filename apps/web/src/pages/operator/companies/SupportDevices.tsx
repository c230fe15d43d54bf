import type { SupportDeviceView } from '@coldchain/contract';
import { Modal, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/DataTable';
import { formatTime } from '../../reports/format';
import { useSupportDevices } from '../api';

const PAGE_SIZE = 10;

/**
 * The company's devices and their latest values, read-only, while the company grants support
 * access (the server refuses otherwise, and writes each look to the company's operation log).
 */
export function SupportDevices({ companyId, onClose }: { companyId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const [pageNum, setPageNum] = useState(1);
  const devices = useSupportDevices(companyId, pageNum, PAGE_SIZE);
  const columns: TableColumnsType<SupportDeviceView> = [
    { title: t('operator.support.serial'), dataIndex: 'serial', key: 'serial' },
    { title: t('operator.support.name'), dataIndex: 'name', key: 'name' },
    {
      title: t('operator.support.values'),
      key: 'values',
      render: (_, d) => d.sensors.map((s) => `${s.value ?? '-'} ${s.unit}`).join(' · ') || '-',
    },
    { title: t('operator.support.lastSeen'), key: 'lastSeen', render: (_, d) => formatTime(d.lastSeenTime) },
  ];
  return (
    <Modal open onCancel={onClose} footer={null} title={t('operator.support.title')} width={760}>
      <DataTable<SupportDeviceView>
        rowKey="id"
        columns={columns}
        dataSource={devices.data?.list ?? []}
        loading={devices.isFetching}
        onRow={(d) => ({ 'data-testid': `support-device-${d.id}` }) as object}
        pagination={{
          current: pageNum,
          pageSize: PAGE_SIZE,
          total: devices.data?.total ?? 0,
          hideOnSinglePage: true,
          showSizeChanger: false,
          onChange: setPageNum,
        }}
      />
    </Modal>
  );
}

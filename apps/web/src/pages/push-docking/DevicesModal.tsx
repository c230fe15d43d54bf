import type { DeviceView, PushUrlView } from '@coldchain/contract';
import { Modal, Select, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePushDevicePage, useSetPushDevices } from './api';

/**
 * `customizedPushDevice`'s device choice for one address: a searchable multiple choice over the
 * company's devices (50 per search); saving replaces the address's list (`/api/push/setDevices`).
 */
export function DevicesModal({ address, onClose }: { address: PushUrlView; onClose: () => void }) {
  const { t } = useTranslation();
  const [chosen, setChosen] = useState<string[]>(address.deviceIds);
  const [keyword, setKeyword] = useState('');
  const devices = usePushDevicePage({ pageNum: 1, pageSize: 50, ...(keyword ? { keyword } : {}) });
  const save = useSetPushDevices();
  // Names of every device seen in any search, so chosen devices keep their names.
  const names = useRef(new Map<string, Pick<DeviceView, 'name' | 'serial'>>());
  for (const d of devices.data?.list ?? []) names.current.set(d.id, d);
  const label = (id: string) => {
    const d = names.current.get(id);
    return d ? `${d.name} (${d.serial})` : id;
  };
  const options = [...new Set([...chosen, ...(devices.data?.list ?? []).map((d) => d.id)])].map((id) => ({
    value: id,
    label: label(id),
  }));

  const submit = async () => {
    try {
      await save.mutateAsync({ id: address.id, deviceIds: chosen });
      onClose();
    } catch {
      // The request wrapper showed the server's message.
    }
  };

  return (
    <Modal
      open
      title={t('pushDock.devices.title', { name: address.name })}
      okText={t('pushDock.common.save')}
      cancelText={t('pushDock.common.cancel')}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={save.isPending}
      okButtonProps={{ 'data-testid': 'push-devices-save' }}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('pushDock.devices.help')}</Typography.Paragraph>
      <Select
        mode="multiple"
        style={{ width: '100%' }}
        value={chosen}
        onChange={setChosen}
        options={options}
        filterOption={false}
        showSearch={{ onSearch: setKeyword }}
        loading={devices.isFetching}
        placeholder={t('pushDock.devices.placeholder')}
        aria-label={t('pushDock.devices.placeholder')}
        data-testid="push-devices-select"
      />
      <Typography.Paragraph style={{ marginTop: 12, marginBottom: 0 }} data-testid="push-devices-count">
        {t('pushDock.devices.count', { count: chosen.length })}
      </Typography.Paragraph>
    </Modal>
  );
}

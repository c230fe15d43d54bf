import type { DeviceView } from '@coldchain/contract';
import { Modal, Select, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePushDevicePage } from '../push-docking/api';
import { useApplyDocking, useSetDockingDevices } from './api';

/**
 * The monitors sent to a platform: applying for a new docking (pending until the supplier enables
 * it) or changing the monitors of a pending or enabled one. A searchable multiple choice over the
 * company's monitors, 50 per search, as on the push address page.
 */
export function MonitorsModal({
  platform,
  docking,
  onClose,
}: {
  platform: { id: string; name: string };
  docking: { id: string; deviceIds: string[] } | null;
  onClose: (applied: boolean) => void;
}) {
  const { t } = useTranslation();
  const [chosen, setChosen] = useState<string[]>(docking?.deviceIds ?? []);
  const [keyword, setKeyword] = useState('');
  const devices = usePushDevicePage({ pageNum: 1, pageSize: 50, ...(keyword ? { keyword } : {}) });
  const apply = useApplyDocking();
  const change = useSetDockingDevices();
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
      if (docking) await change.mutateAsync({ id: docking.id, deviceIds: chosen });
      else await apply.mutateAsync({ platformId: platform.id, deviceIds: chosen });
      onClose(!docking);
    } catch {
      // The request wrapper showed the server's message.
    }
  };

  return (
    <Modal
      open
      title={t(docking ? 'platformDock.monitors.changeTitle' : 'platformDock.monitors.applyTitle', {
        name: platform.name,
      })}
      okText={t(docking ? 'platformDock.common.save' : 'platformDock.monitors.apply')}
      cancelText={t('platformDock.common.cancel')}
      onOk={submit}
      onCancel={() => onClose(false)}
      confirmLoading={apply.isPending || change.isPending}
      okButtonProps={{ 'data-testid': 'dock-monitors-save', disabled: chosen.length === 0 }}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        {t(docking ? 'platformDock.monitors.changeHelp' : 'platformDock.monitors.applyHelp')}
      </Typography.Paragraph>
      <Select
        mode="multiple"
        style={{ width: '100%' }}
        value={chosen}
        onChange={setChosen}
        options={options}
        filterOption={false}
        showSearch={{ onSearch: setKeyword }}
        loading={devices.isFetching}
        placeholder={t('platformDock.monitors.placeholder')}
        aria-label={t('platformDock.monitors.placeholder')}
        data-testid="dock-monitors-select"
      />
    </Modal>
  );
}

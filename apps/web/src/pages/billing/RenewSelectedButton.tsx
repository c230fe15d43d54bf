import { HistoryOutlined, WalletOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useHasAuthTag } from '../../session/queries';
import { payUrl, recoveryUrl } from './links';

/** The device list's renewal and recovery entries, carrying the selection; only with device:topUp. */
export function RenewSelectedButton({ deviceIds }: { deviceIds: string[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  if (!useHasAuthTag('device:topUp')) return null;
  return (
    <>
      <Button icon={<WalletOutlined />} onClick={() => navigate(payUrl(deviceIds))} data-testid="batch-renew">
        {t('billing.renew')}
      </Button>
      <Button
        icon={<HistoryOutlined />}
        onClick={() => navigate(recoveryUrl(deviceIds))}
        data-testid="batch-recover"
      >
        {t('billing.recover')}
      </Button>
    </>
  );
}

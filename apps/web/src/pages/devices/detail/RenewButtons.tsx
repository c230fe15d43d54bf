import { App, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useHasAuthTag } from '../../../session/queries';
import { payUrl, recoveryUrl } from '../../billing/links';

/**
 * Renewal and data recovery for this monitor. Without the top-up permission the buttons stay
 * and say why they cannot be used (spec section 8: "Cannot top up without permission").
 */
export function RenewButtons({ deviceId }: { deviceId: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const allowed = useHasAuthTag('device:topUp');
  const go = (url: string) => {
    if (!allowed) void message.error(t('billing.noPermission'));
    else navigate(url);
  };
  return (
    <>
      <Button onClick={() => go(payUrl([deviceId]))} data-testid="device-renew">
        {t('billing.renew')}
      </Button>
      <Button onClick={() => go(recoveryUrl([deviceId]))} data-testid="device-recover">
        {t('billing.recover')}
      </Button>
    </>
  );
}

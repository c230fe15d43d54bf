import { Button, Result, Space, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { confirmQrTicket, scanQrTicket } from './calls';

type Phase = 'scanning' | 'ready' | 'failed' | 'done';

/**
 * /qrConfirm?ticket= (requires login): the phone that scanned the login page's QR code confirms
 * that the computer may log in as this user.
 */
export default function QrConfirmPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const ticket = params.get('ticket') ?? '';
  const [phase, setPhase] = useState<Phase>(ticket ? 'scanning' : 'failed');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!ticket) return;
    let live = true;
    scanQrTicket(ticket).then(
      () => live && setPhase('ready'),
      () => live && setPhase('failed'),
    );
    return () => {
      live = false;
    };
  }, [ticket]);

  const confirm = async () => {
    setBusy(true);
    try {
      await confirmQrTicket(ticket);
      setPhase('done');
    } catch {
      setPhase('failed');
    } finally {
      setBusy(false);
    }
  };

  if (phase === 'scanning') return <Spin style={{ display: 'block', margin: 48 }} />;
  if (phase === 'done') return <Result status="success" title={t('account.qrConfirm.done')} />;
  if (phase === 'failed') {
    return (
      <Result
        status="warning"
        title={ticket ? t('login.qrExpired') : t('account.qrConfirm.missing')}
        extra={<Button onClick={() => navigate('/home')}>{t('account.qrConfirm.cancel')}</Button>}
      />
    );
  }
  return (
    <Result
      status="info"
      title={t('account.qrConfirm.title')}
      subTitle={t('account.qrConfirm.question')}
      extra={
        <Space>
          <Button type="primary" loading={busy} onClick={confirm} data-testid="qr-confirm">
            {t('account.qrConfirm.confirm')}
          </Button>
          <Button onClick={() => navigate('/home')}>{t('account.qrConfirm.cancel')}</Button>
        </Space>
      }
    />
  );
}

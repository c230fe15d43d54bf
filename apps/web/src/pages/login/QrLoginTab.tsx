import { QR_POLL_INTERVAL_MS, type QrTicket } from '@coldchain/contract';
import { QRCode, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createQrTicket, pollQrTicket } from '../account/calls';

type QrState = 'loading' | 'waiting' | 'scanned' | 'expired';

/**
 * The QR tab: shows a one-time ticket as a QR code for a signed-in phone (/qrConfirm) and polls it
 * every 2 seconds; the poll after the phone confirms carries the session token. An expired code
 * says so and is refreshed by a click (spec section 8).
 */
export function QrLoginTab({ onToken }: { onToken: (accessToken: string) => void }) {
  const { t } = useTranslation();
  const [ticket, setTicket] = useState<QrTicket | null>(null);
  const [state, setState] = useState<QrState>('loading');

  const refresh = useCallback(() => {
    setState('loading');
    createQrTicket().then(
      (next) => {
        setTicket(next);
        setState('waiting');
      },
      () => setState('expired'),
    );
  }, []);

  useEffect(refresh, [refresh]);

  useEffect(() => {
    if (!ticket || state === 'expired' || state === 'loading') return;
    let live = true;
    const timer = setInterval(() => {
      if (Date.now() > ticket.expireTime) {
        setState('expired');
        return;
      }
      pollQrTicket(ticket.ticket).then(
        (answer) => {
          if (!live) return;
          if (answer.state === 'confirmed' && answer.accessToken) {
            live = false;
            clearInterval(timer);
            onToken(answer.accessToken);
          } else if (answer.state === 'confirmed') setState('expired');
          else setState(answer.state);
        },
        () => live && setState('expired'),
      );
    }, QR_POLL_INTERVAL_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [ticket, state, onToken]);

  const link = ticket
    ? `${window.location.origin}/qrConfirm?ticket=${encodeURIComponent(ticket.ticket)}`
    : '-';
  return (
    <div style={{ display: 'grid', justifyItems: 'center', gap: 12 }} data-testid="qr-login">
      <QRCode
        type="svg"
        value={link}
        size={200}
        status={state === 'waiting' ? 'active' : state}
        onRefresh={refresh}
        statusRender={({ status }) =>
          status === 'expired' ? (
            <button
              type="button"
              onClick={refresh}
              data-testid="qr-expired"
              style={{ background: 'none', border: 0, cursor: 'pointer', padding: 12 }}
            >
              {t('login.qrExpired')}
            </button>
          ) : status === 'scanned' ? (
            <span data-testid="qr-scanned">{t('login.qrScanned')}</span>
          ) : null
        }
      />
      <Typography.Text type="secondary">{t('login.qrHint')}</Typography.Text>
    </div>
  );
}

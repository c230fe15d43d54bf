import { ADDRESS_CODE_TTL_HOURS, type AddressCodeIssued } from '@coldchain/contract';
import { App, Button, Card, Flex, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../devices/format';
import { createAddressCode } from './api';

/** The link a data screen opens: the login page logs in with the code by itself. */
export function addressCodeUrl(code: string): string {
  return `${window.location.origin}/login?addressCode=${encodeURIComponent(code)}`;
}

/**
 * "Log in a wall screen": a one-time link (one login, 24 hours) for a data screen or kiosk, so
 * nobody types a password on a shared screen. A refused clipboard shows 'Copy failed'.
 */
export function AddressCodeCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [issued, setIssued] = useState<AddressCodeIssued | null>(null);
  const [busy, setBusy] = useState(false);

  const create = async () => {
    setBusy(true);
    try {
      setIssued(await createAddressCode());
    } catch {
      // The request wrapper showed the server's reason.
    } finally {
      setBusy(false);
    }
  };

  const copy = async () => {
    if (!issued) return;
    try {
      await navigator.clipboard.writeText(addressCodeUrl(issued.code));
      void message.success(t('profile.addressCode.copied'));
    } catch {
      void message.error(t('profile.addressCode.copyFailed'));
    }
  };

  return (
    <Card title={t('profile.addressCode.title')} style={{ marginTop: 16 }} data-testid="address-code-card">
      <Flex vertical gap="small">
        <Typography.Text type="secondary">{t('profile.addressCode.hint')}</Typography.Text>
        {issued ? (
          <>
            <Flex gap="small">
              <Input readOnly value={addressCodeUrl(issued.code)} data-testid="address-code-link" />
              <Button type="primary" onClick={copy} data-testid="address-code-copy">
                {t('profile.addressCode.copy')}
              </Button>
            </Flex>
            <Typography.Text type="secondary" data-testid="address-code-expiry">
              {t('profile.addressCode.expires', {
                time: formatTime(issued.expireTime),
                hours: ADDRESS_CODE_TTL_HOURS,
              })}
            </Typography.Text>
            <Typography.Text type="warning">{t('profile.addressCode.warning')}</Typography.Text>
          </>
        ) : null}
        <div>
          <Button onClick={create} loading={busy} data-testid="address-code-create">
            {t(issued ? 'profile.addressCode.createAgain' : 'profile.addressCode.create')}
          </Button>
        </div>
      </Flex>
    </Card>
  );
}

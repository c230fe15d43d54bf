import { Button } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Spec: a new code may be asked for once a minute; the button counts the wait down. */
export const RESEND_SECONDS = 60;

interface Props {
  /** Sends the code; resolves when sent, rejects when the server refused (message already shown). */
  send: () => Promise<unknown>;
  /** Checked before sending, e.g. that the account field is valid. */
  beforeSend?: () => Promise<unknown>;
  testId?: string;
}

export function SendCodeButton({ send, beforeSend, testId = 'send-code' }: Props) {
  const { t } = useTranslation();
  const [left, setLeft] = useState(0);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);

  const click = async () => {
    try {
      await beforeSend?.();
    } catch {
      return; // the form shows what is wrong
    }
    setBusy(true);
    try {
      await send();
      setLeft(RESEND_SECONDS);
    } catch {
      // The request wrapper showed the server's message.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Button onClick={click} disabled={left > 0} loading={busy} data-testid={testId}>
      {left > 0 ? t('account.resendIn', { seconds: left }) : t('account.sendCode')}
    </Button>
  );
}

import { Result } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useHasAuthTag } from '../../session/queries';

/** Spec sections 6 and 8: without the top-up permission the page says so instead of its form. */
export function TopUpGuard({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const allowed = useHasAuthTag('device:topUp');
  if (!allowed) {
    return <Result status="403" title={t('billing.noPermission')} data-testid="top-up-refused" />;
  }
  return <>{children}</>;
}

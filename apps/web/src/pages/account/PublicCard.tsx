import { Card, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LanguageSwitch } from '../login/LanguageSwitch';

/** The frame of the public account pages (no layout, spec section 2). */
export function PublicCard({
  title,
  children,
  width = 440,
}: {
  title: string;
  children: ReactNode;
  width?: number;
}) {
  const { t } = useTranslation();
  return (
    <div style={{ minHeight: '100vh', display: 'grid', placeItems: 'center', background: '#f0f2f5' }}>
      <Card style={{ width, maxWidth: '94vw' }}>
        <div
          style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', marginBottom: 16 }}
        >
          <Typography.Title level={3} style={{ margin: 0 }} data-testid="page-title">
            {title}
          </Typography.Title>
          <LanguageSwitch />
        </div>
        {children}
        <div style={{ marginTop: 16, textAlign: 'center' }}>
          <Link to="/login">{t('account.backToLogin')}</Link>
        </div>
      </Card>
    </div>
  );
}

import { Card, Flex, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useClientConfig } from '../../../session/queries';
import { LanguageSwitch } from '../../login/LanguageSwitch';

/** The layout-less frame of the public invitation and join pages, like the login page's. */
export function PublicFrame({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  const { data: config } = useClientConfig();
  return (
    <div style={{ minHeight: '100vh', display: 'grid', placeItems: 'center', background: '#f0f2f5' }}>
      <Card style={{ width: 520, maxWidth: '94vw' }}>
        <Flex justify="space-between" align="center" style={{ marginBottom: 8 }}>
          <Typography.Text type="secondary">{config?.productName || t('common.productName')}</Typography.Text>
          <LanguageSwitch />
        </Flex>
        <Typography.Title level={3} data-testid="page-title">
          {title}
        </Typography.Title>
        {children}
      </Card>
    </div>
  );
}

import { Button, Card, Flex, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHasAuthTag } from '../../../session/queries';
import { ApplyInvoiceModal } from './ApplyInvoiceModal';
import { InvoicesTable } from './InvoicesTable';

/**
 * Invoice management (menu `applicationForInvoice`, issue 17 item 4): the company's applications
 * and a new one over paid orders not yet invoiced; issued invoices download as PDF.
 */
export default function InvoicesPage() {
  const { t } = useTranslation();
  const canEdit = useHasAuthTag('invoice:edit');
  const [applying, setApplying] = useState(false);
  return (
    <Flex vertical gap="middle">
      <Typography.Title level={2} data-testid="page-title" style={{ margin: 0 }}>
        {t('menu.applicationForInvoice')}
      </Typography.Title>
      <Typography.Text type="secondary">{t('invoices.list.intro')}</Typography.Text>
      <Card>
        <InvoicesTable
          canEdit={canEdit}
          extra={
            canEdit ? (
              <Button type="primary" onClick={() => setApplying(true)} data-testid="invoice-apply">
                {t('invoices.form.heading')}
              </Button>
            ) : null
          }
        />
      </Card>
      <ApplyInvoiceModal open={applying} onClose={() => setApplying(false)} />
    </Flex>
  );
}

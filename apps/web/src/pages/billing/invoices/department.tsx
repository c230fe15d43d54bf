import { Card, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { InvoicesTable } from './InvoicesTable';

/**
 * Department invoices (menu `orgApplicationForInvoice`, opened from a department `?id=`): the
 * applications made by members of that department and those below it, read only; applying and
 * cancelling happen on the company's invoice page (docs/decisions.md).
 */
export default function DepartmentInvoicesPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = params.get('id') ?? undefined;
  return (
    <Flex vertical gap="middle">
      <Typography.Title level={2} data-testid="page-title" style={{ margin: 0 }}>
        {t('menu.orgApplicationForInvoice')}
      </Typography.Title>
      <Typography.Text type="secondary">{t('invoices.list.departmentIntro')}</Typography.Text>
      <Card>
        {/* Without a department: everything the caller's own scope shows (their department for members). */}
        <InvoicesTable departmentId={id} canEdit={false} />
      </Card>
    </Flex>
  );
}

import { InvoiceStatus, type OperatorInvoiceView } from '@coldchain/contract';
import { Button, Card, Descriptions, Flex, Image, Input, Modal, Select, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/DataTable';
import { INVOICE_STATUS_COLORS } from '../../billing/invoices/InvoicesTable';
import { formatAmount } from '../../billing/money';
import { FileField } from '../../billing/service-list/FileField';
import { formatTime } from '../../devices/format';
import { useIssueInvoice, useOperatorInvoices, useRejectInvoice } from './queries';
import { RejectDialog } from './RejectDialog';

const PAGE_SIZE = 10;

/**
 * The operator's invoice applications (issue 17 item 6): in progress first; issue one by
 * uploading the invoice PDF (e-mailed for electronic invoices), or reject it with a reason.
 */
export default function OperatorInvoicesPage() {
  const { t } = useTranslation();
  const [pageNum, setPageNum] = useState(1);
  const [status, setStatus] = useState<number | undefined>(InvoiceStatus.InProgress);
  const [companyName, setCompanyName] = useState('');
  const [issuing, setIssuing] = useState<OperatorInvoiceView | null>(null);
  const [rejecting, setRejecting] = useState<OperatorInvoiceView | null>(null);
  const [pdf, setPdf] = useState<string | undefined>();
  const invoices = useOperatorInvoices({
    pageNum,
    pageSize: PAGE_SIZE,
    ...(status ? { status } : {}),
    ...(companyName ? { companyName } : {}),
  });
  const issue = useIssueInvoice();
  const reject = useRejectInvoice();
  return (
    <Flex vertical gap="middle">
      <Typography.Title level={2} data-testid="page-title" style={{ margin: 0 }}>
        {t('menu.operatorInvoices')}
      </Typography.Title>
      <Card>
        <Flex gap="small" wrap style={{ marginBottom: 12 }}>
          <Select
            allowClear
            style={{ minWidth: 200 }}
            placeholder={t('invoices.list.status')}
            aria-label={t('invoices.list.status')}
            value={status}
            data-testid="operator-invoices-status"
            onChange={(v) => {
              setStatus(v);
              setPageNum(1);
            }}
            options={[1, 2, 3, 4].map((s) => ({ value: s, label: t(`invoices.status.${s}`) }))}
          />
          <Input.Search
            allowClear
            style={{ maxWidth: 280 }}
            placeholder={t('invoices.operator.company')}
            aria-label={t('invoices.operator.company')}
            onSearch={(v) => {
              setCompanyName(v.trim());
              setPageNum(1);
            }}
          />
        </Flex>
        <DataTable<OperatorInvoiceView>
          rowKey="id"
          size="small"
          loading={invoices.isFetching}
          dataSource={invoices.data?.list ?? []}
          onRow={(i) => ({ 'data-testid': `operator-invoice-${i.id}` }) as React.HTMLAttributes<HTMLElement>}
          pagination={{
            current: pageNum,
            pageSize: PAGE_SIZE,
            total: invoices.data?.total ?? 0,
            showSizeChanger: false,
            onChange: setPageNum,
          }}
          columns={[
            { key: 'company', title: t('invoices.operator.company'), dataIndex: 'companyName' },
            { key: 'time', title: t('invoices.list.time'), render: (_, i) => formatTime(i.createTime) },
            { key: 'type', title: t('invoices.form.type'), render: (_, i) => t(`invoices.type.${i.type}`) },
            { key: 'title', title: t('invoices.form.title'), dataIndex: 'title' },
            { key: 'amount', title: t('invoices.list.amount'), render: (_, i) => formatAmount(i.amount) },
            {
              key: 'status',
              title: t('invoices.list.status'),
              render: (_, i) => (
                <Tag color={INVOICE_STATUS_COLORS[i.status]} data-testid="invoice-status">
                  {t(`invoices.status.${i.status}`)}
                </Tag>
              ),
            },
            {
              key: 'actions',
              title: t('invoices.list.actions'),
              render: (_, i) =>
                i.status === InvoiceStatus.InProgress ? (
                  <Flex gap="small" wrap>
                    <Button
                      size="small"
                      type="primary"
                      data-testid="invoice-issue"
                      onClick={() => {
                        setPdf(undefined);
                        setIssuing(i);
                      }}
                    >
                      {t('invoices.operator.issue')}
                    </Button>
                    <Button size="small" danger data-testid="invoice-reject" onClick={() => setRejecting(i)}>
                      {t('invoices.operator.reject')}
                    </Button>
                  </Flex>
                ) : i.pdfFile ? (
                  <Typography.Link href={i.pdfFile} target="_blank" rel="noreferrer">
                    {t('invoices.list.download')}
                  </Typography.Link>
                ) : null,
            },
          ]}
        />
      </Card>
      <Modal
        open={!!issuing}
        destroyOnHidden
        width={640}
        title={t('invoices.operator.issueTitle')}
        okText={t('invoices.operator.issue')}
        cancelText={t('invoices.common.cancel')}
        confirmLoading={issue.isPending}
        okButtonProps={{
          disabled: !pdf,
          ...({ 'data-testid': 'invoice-issue-submit' } as Record<string, unknown>),
        }}
        onCancel={() => setIssuing(null)}
        onOk={async () => {
          if (!issuing || !pdf) return;
          const done = await issue
            .mutateAsync({ id: issuing.id, pdfFile: pdf })
            .then(() => true)
            .catch(() => false);
          if (done) setIssuing(null);
        }}
      >
        {issuing ? <InvoiceDetails invoice={issuing} /> : null}
        <Typography.Paragraph style={{ marginTop: 12 }}>
          {t('invoices.operator.pdfHint')}
        </Typography.Paragraph>
        <FileField
          purpose="attachment"
          accept="application/pdf"
          value={pdf}
          onChange={setPdf}
          testId="invoice-pdf"
        />
      </Modal>
      <RejectDialog
        open={!!rejecting}
        title={t('invoices.operator.rejectTitle')}
        onClose={() => setRejecting(null)}
        onReject={(reason) => reject.mutateAsync({ id: rejecting!.id, reason })}
      />
    </Flex>
  );
}

function InvoiceDetails({ invoice: i }: { invoice: OperatorInvoiceView }) {
  const { t } = useTranslation();
  const rows: [string, React.ReactNode][] = [
    [t('invoices.operator.company'), i.companyName],
    [t('invoices.form.type'), t(`invoices.type.${i.type}`)],
    [t('invoices.form.title'), i.title],
    [t('invoices.list.amount'), formatAmount(i.amount)],
    [t('invoices.list.orders'), i.orders.map((o) => `${o.orderNo} (${formatAmount(o.amount)})`).join(', ')],
    [t('invoices.form.taxpayerId'), i.taxpayerId],
    [t('invoices.form.bank'), `${i.bank} ${i.account}`.trim()],
    [t('invoices.form.companyAddress'), `${i.companyAddress} ${i.companyPhone}`.trim()],
    [
      t('invoices.form.mailingAddress'),
      [i.mailingAddress, i.postcode, i.recipient, i.contact].filter(Boolean).join(', '),
    ],
    [t('invoices.form.email'), i.email],
  ];
  return (
    <Descriptions size="small" column={1} bordered data-testid="invoice-details">
      {rows
        .filter(([, v]) => v !== '' && v !== null)
        .map(([label, value]) => (
          <Descriptions.Item key={label} label={label}>
            {value}
          </Descriptions.Item>
        ))}
      {i.proofImage ? (
        <Descriptions.Item label={t('invoices.form.proofImage')}>
          <Image src={i.proofImage} width={96} />
        </Descriptions.Item>
      ) : null}
    </Descriptions>
  );
}

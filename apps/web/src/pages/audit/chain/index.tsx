import type { ChainProblem } from '@coldchain/contract';
import { Alert, Button, Card, Space, type TableColumnsType, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/DataTable';
import { formatTime } from '../../devices/format';
import { useVerifyChain } from '../queries';

/**
 * Integrity check of the operation log: the server recomputes the company's hash chain; an
 * intact chain shows how many entries were checked, a broken one lists each edited entry and
 * each gap with its position and time.
 */
export default function AuditChainPage() {
  const { t } = useTranslation();
  const verify = useVerifyChain();
  const result = verify.data;

  const problemText = (p: ChainProblem) => {
    if (p.kind !== 'missing') return t(`audit.chain.${p.kind}`);
    if (p.missingFrom === undefined || p.missingTo === undefined) return t('audit.chain.missing');
    return p.missingFrom === p.missingTo
      ? t('audit.chain.missingOne', { from: p.missingFrom })
      : t('audit.chain.missingRange', { from: p.missingFrom, to: p.missingTo });
  };

  const columns: TableColumnsType<ChainProblem> = [
    { title: t('audit.chain.position'), dataIndex: 'seq', key: 'seq' },
    { title: t('audit.chain.time'), key: 'time', render: (_, p) => formatTime(p.time) },
    {
      title: t('audit.chain.kind'),
      key: 'kind',
      render: (_, p) => (
        <Typography.Text type="danger" data-testid="chain-problem-kind">
          {problemText(p)}
        </Typography.Text>
      ),
    },
  ];

  return (
    <div>
      <Typography.Title level={2} data-testid="page-title">
        {t('menu.auditChain')}
      </Typography.Title>
      <Card>
        <Space direction="vertical" size="middle" style={{ width: '100%' }}>
          <Typography.Paragraph>{t('audit.chain.intro')}</Typography.Paragraph>
          <Button
            type="primary"
            loading={verify.isPending}
            onClick={() => verify.mutate()}
            data-testid="chain-verify"
          >
            {t('audit.chain.verify')}
          </Button>
          {result ? (
            result.ok ? (
              <Alert
                type="success"
                showIcon
                message={t('audit.chain.ok', { count: result.checked })}
                data-testid="chain-result"
              />
            ) : (
              <>
                <Alert
                  type="error"
                  showIcon
                  message={t('audit.chain.broken', {
                    count: result.problems.length,
                    checked: result.checked,
                  })}
                  data-testid="chain-result"
                />
                <DataTable<ChainProblem>
                  rowKey={(p) => `${p.seq}-${p.kind}`}
                  columns={columns}
                  dataSource={result.problems}
                  pagination={false}
                  onRow={(p) => ({
                    className: 'audit-row',
                    'data-testid': `chain-problem-${p.seq}-${p.kind}`,
                  })}
                />
              </>
            )
          ) : (
            <Typography.Text type="secondary">{t('audit.chain.notYet')}</Typography.Text>
          )}
        </Space>
      </Card>
    </div>
  );
}

import { CheckCircleOutlined, CloseCircleOutlined } from '@ant-design/icons';
import { Alert, Button, Descriptions, Flex, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { useVerifyReport } from '../api';
import { formatTime } from '../format';

const SHA256 = /^[0-9a-fA-F]{64}$/;

/**
 * "Verify a printed report": the SHA-256 printed on each page (or the hash of a downloaded file)
 * is looked up among the company's generated files (`/api/report/verifyReport`).
 */
export function VerifyReportBox() {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ sha256: string }>();
  const verify = useVerifyReport();
  const answer = verify.data;

  return (
    <Flex vertical gap="middle">
      <Form
        form={form}
        layout="vertical"
        style={{ maxWidth: 720 }}
        onFinish={({ sha256 }) => verify.mutate(sha256.replace(/\s+/g, '').toLowerCase())}
        onValuesChange={() => verify.reset()}
      >
        <Form.Item
          name="sha256"
          label={t('reports.verify.label')}
          extra={t('reports.verify.help')}
          normalize={(value: string) => value.replace(/\s+/g, '')}
          rules={[
            { required: true, message: t('reports.verify.required') },
            { pattern: SHA256, message: t('reports.verify.invalid') },
          ]}
        >
          <Input
            maxLength={80}
            spellCheck={false}
            autoComplete="off"
            style={{ fontFamily: 'monospace' }}
            data-testid="verify-sha256"
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={verify.isPending} data-testid="verify-submit">
          {t('reports.verify.submit')}
        </Button>
      </Form>
      {answer?.found && (
        <Alert
          type="success"
          showIcon
          icon={<CheckCircleOutlined />}
          title={t('reports.verify.found')}
          description={
            <Descriptions
              size="small"
              column={1}
              items={[
                { key: 'file', label: t('reports.field.fileName'), children: answer.fileName },
                {
                  key: 'at',
                  label: t('reports.field.generatedAt'),
                  children: formatTime(answer.generatedAt),
                },
                { key: 'by', label: t('reports.field.generatedBy'), children: answer.generatedBy || '-' },
              ]}
            />
          }
          data-testid="verify-found"
        />
      )}
      {answer && !answer.found && (
        <Alert
          type="warning"
          showIcon
          icon={<CloseCircleOutlined />}
          title={t('reports.verify.notFound')}
          description={t('reports.verify.notFoundHelp')}
          data-testid="verify-not-found"
        />
      )}
    </Flex>
  );
}

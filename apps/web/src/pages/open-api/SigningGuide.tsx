import { Card, Descriptions, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { openApiBaseUrl } from './api';

const SIGNING_TEXT = 'METHOD\\npath?query\\ntimestamp\\nnonce\\nbody';

function example(baseUrl: string): string {
  return [
    "import { createHmac, randomUUID } from 'node:crypto';",
    '',
    "const path = '/open/v1/devices?pageNum=1&pageSize=20';",
    'const timestamp = String(Date.now());',
    'const nonce = randomUUID();',
    "const text = ['GET', path, timestamp, nonce, ''].join('\\n');",
    "const signature = createHmac('sha256', APP_SECRET).update(text).digest('hex');",
    `const answer = await fetch('${baseUrl.replace(/\/open\/v1$/, '')}' + path, {`,
    "  headers: { 'X-App-Key': APP_KEY, 'X-Timestamp': timestamp, 'X-Nonce': nonce, 'X-Signature': signature },",
    '});',
  ].join('\n');
}

/** "How to sign a request" (API.md "Open API"): base URL, headers, the signed text, an example. */
export function SigningGuide() {
  const { t } = useTranslation();
  const baseUrl = openApiBaseUrl();
  const copyable = { tooltips: [t('openApi.common.copy'), t('openApi.common.copied')] };
  const pre = { margin: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-all' } as const;
  return (
    <Card title={t('openApi.guide.title')} data-testid="signing-guide">
      <Descriptions column={1} size="small" layout="vertical">
        <Descriptions.Item label={t('openApi.guide.baseUrl')}>
          <Typography.Text
            code
            copyable={copyable}
            data-testid="open-api-base-url"
            style={{ wordBreak: 'break-all' }}
          >
            {baseUrl}
          </Typography.Text>
        </Descriptions.Item>
      </Descriptions>
      <Typography.Paragraph>{t('openApi.guide.intro')}</Typography.Paragraph>
      <Typography.Paragraph strong>{t('openApi.guide.signingText')}</Typography.Paragraph>
      <Typography.Paragraph>
        <pre style={pre} data-testid="signing-text">
          {SIGNING_TEXT}
        </pre>
      </Typography.Paragraph>
      <Typography.Paragraph strong>{t('openApi.guide.headers')}</Typography.Paragraph>
      <ul>
        <li>
          <Typography.Text code>X-App-Key</Typography.Text>: {t('openApi.guide.appKey')}
        </li>
        <li>
          <Typography.Text code>X-Timestamp</Typography.Text>: {t('openApi.guide.timestamp')}
        </li>
        <li>
          <Typography.Text code>X-Nonce</Typography.Text>: {t('openApi.guide.nonce')}
        </li>
        <li>
          <Typography.Text code>X-Signature</Typography.Text>: {t('openApi.guide.signature')}
        </li>
      </ul>
      <Typography.Paragraph>{t('openApi.guide.calls')}</Typography.Paragraph>
      <Typography.Paragraph strong>{t('openApi.guide.example')}</Typography.Paragraph>
      <Typography.Paragraph>
        <pre style={pre}>{example(baseUrl)}</pre>
      </Typography.Paragraph>
    </Card>
  );
}

import { FileTextOutlined } from '@ant-design/icons';
import { Alert, Card, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { OPENAPI_DOCUMENT_URL } from './api-document-query';
import { openApiTabUrl } from './paths';
import { SwaggerView } from './SwaggerView';

/**
 * The "API document" tab of `OpenApi` (docs/decisions.md, "API document page"): a short word on
 * signing in the user's language, then the server's OpenAPI document in Swagger UI, whose own
 * text stays English. Calls are not sent from here ("Try it out" is off): a signed call needs the
 * app secret, which the console shows once and never keeps.
 */
export function ApiDocument() {
  const { t } = useTranslation();
  return (
    <Flex vertical gap="middle" data-testid="api-document">
      <Card size="small">
        <Typography.Paragraph>{t('openApi.document.intro')}</Typography.Paragraph>
        <Typography.Paragraph>
          {t('openApi.document.signing')}{' '}
          <Link
            to={openApiTabUrl('keys')}
            // Underlined: a link inside a sentence must not be told by its colour alone (axe).
            style={{ textDecoration: 'underline' }}
            data-testid="api-document-signing-link"
          >
            {t('openApi.guide.title')}
          </Link>
        </Typography.Paragraph>
        <Alert type="info" showIcon title={t('openApi.document.tryItOut')} />
        <Typography.Paragraph style={{ margin: '12px 0 0' }}>
          <Typography.Link
            href={OPENAPI_DOCUMENT_URL}
            target="_blank"
            rel="noopener"
            data-testid="api-document-json"
          >
            <FileTextOutlined /> {t('openApi.document.json')}
          </Typography.Link>
        </Typography.Paragraph>
        <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
          {t('openApi.document.english')}
        </Typography.Paragraph>
      </Card>
      <SwaggerView />
    </Flex>
  );
}

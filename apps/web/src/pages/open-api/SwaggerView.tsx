import { ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Spin } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { OPEN_API_TAG, useOpenApiDocument, useSwaggerUi } from './api-document-query';
import './api-document.css';

/** Open-API operations first, then the console's groups by name. */
function tagsSorter(a: string, b: string): number {
  if (a === OPEN_API_TAG) return b === OPEN_API_TAG ? 0 : -1;
  if (b === OPEN_API_TAG) return 1;
  return a.localeCompare(b);
}

/**
 * No "Authorize" dialog or padlocks: nothing is sent from this page ("Try it out" is off), so a
 * place to type a key or a token would only invite pasting secrets into a web page.
 */
const withoutAuthorize = () => ({
  wrapComponents: { authorizeBtn: () => () => null, authorizeOperationBtn: () => () => null },
});

/**
 * Swagger UI showing the server's document. Rendered into a node React does not manage (Swagger
 * UI brings its own React); the node is wrapped in a box that scrolls sideways by itself, so a
 * wide schema or code block never makes the page wider than a phone.
 */
export function SwaggerView() {
  const { t } = useTranslation();
  const openApiDocument = useOpenApiDocument();
  const swagger = useSwaggerUi();
  const node = useRef<HTMLDivElement>(null);
  const [rendered, setRendered] = useState(false);
  const spec = openApiDocument.data;
  const render = swagger.data?.render;

  useEffect(() => {
    const target = node.current;
    if (!render || !spec || !target) return;
    setRendered(false);
    // A fresh node per rendering: Swagger UI makes a React root of it, and a second root on the
    // same node (a re-render, React's development double effects) is an error.
    const host = document.createElement('div');
    target.append(host);
    const ui = render({
      domNode: host,
      spec,
      validatorUrl: null,
      supportedSubmitMethods: [],
      tryItOutEnabled: false,
      deepLinking: false,
      docExpansion: 'none',
      defaultModelsExpandDepth: -1,
      // Its highlighter froze Chromium (the tab stopped answering) as soon as a request body's
      // example was shown; plain code blocks read as well (api-document.spec.ts opens one).
      syntaxHighlight: false,
      filter: true,
      tagsSorter,
      plugins: [withoutAuthorize],
      onComplete: () => setRendered(true),
    });
    // The open API is what an integrator came for: its group starts expanded.
    ui.getSystem().layoutActions.show(['operations-tag', OPEN_API_TAG], true);
    return () => host.remove();
  }, [render, spec]);

  const failed = openApiDocument.isError || swagger.isError;
  if (failed) {
    return (
      <Alert
        type="error"
        showIcon
        title={t(openApiDocument.isError ? 'openApi.document.loadFailed' : 'openApi.document.viewerFailed')}
        action={
          <Button
            size="small"
            icon={<ReloadOutlined />}
            onClick={() => {
              if (openApiDocument.isError) void openApiDocument.refetch();
              if (swagger.isError) void swagger.refetch();
            }}
            data-testid="api-document-retry"
          >
            {t('openApi.common.retry')}
          </Button>
        }
        data-testid="api-document-error"
      />
    );
  }
  return (
    <Spin spinning={!rendered} description={t('openApi.document.loading')}>
      <div className="api-document-scroll" data-testid="api-document-view" lang="en">
        <div ref={node} />
      </div>
    </Spin>
  );
}

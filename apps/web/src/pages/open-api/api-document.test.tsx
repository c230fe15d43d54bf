import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { stubServer } from '../../test/fake-server';
import { currentLocation, renderApp, resetBrowserState } from '../../test/render-app';
import { OPENAPI_DOCUMENT_URL } from './api-document-query';
import { OPEN_API_PATH, openApiTabUrl } from './paths';

/** A document shaped like the server's (openapi-document.ts): an open-API tag and a console tag. */
const DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'Cold-chain monitoring platform API', version: '0.1.0' },
  components: {
    securitySchemes: { appKey: { type: 'apiKey', in: 'header', name: 'X-App-Key' } },
  },
  paths: {
    '/api/role/addRole': {
      post: { tags: ['Console: role'], responses: { 200: { description: 'Default Response' } } },
    },
    '/open/v1/devices': {
      get: {
        tags: ['Open API'],
        security: [{ appKey: [] }],
        parameters: [{ name: 'pageNum', in: 'query', schema: { type: 'integer', minimum: 1 } }],
        responses: { 200: { description: 'Default Response' } },
      },
    },
    '/open/v1/alarms': {
      get: { tags: ['Open API'], security: [{ appKey: [] }], responses: { 200: { description: 'OK' } } },
    },
  },
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function serve(document: Response = json(DOCUMENT)) {
  return stubServer({
    overrides: {
      '/api/openApi/pageKeys': () => ({ list: [], total: 0, pageNum: 1, pageSize: 100 }),
      [OPENAPI_DOCUMENT_URL]: document,
    },
  });
}

function documentRequests(server: ReturnType<typeof serve>) {
  return server.mock.calls.filter(([input]) => String(input) === OPENAPI_DOCUMENT_URL);
}

/** The first visit compiles the page and Swagger UI's 1.7 MB bundle: slow on a shared machine. */
const SLOW_MS = 60_000;

beforeEach(async () => {
  resetBrowserState();
  localStorage.setItem('accessToken', 't');
  await i18n.changeLanguage('en');
});
afterEach(() => vi.unstubAllGlobals());

describe('API document', () => {
  it(
    "asks for the server's document and shows its operations, open API first, with no way to send calls",
    async () => {
      const server = serve();
      renderApp(openApiTabUrl('document'));
      const view = await screen.findByTestId('api-document-view', {}, { timeout: 20_000 });
      await within(view).findByText('/open/v1/devices', {}, { timeout: 20_000 });
      expect(documentRequests(server)).toHaveLength(1);
      // The open-API group is expanded and listed before the console's.
      const tags = [...view.querySelectorAll('.opblock-tag')].map((el) => el.getAttribute('data-tag'));
      expect(tags).toEqual(['Open API', 'Console: role']);
      expect(within(view).getByText('/open/v1/alarms')).toBeInTheDocument();
      expect(within(view).queryByText('/api/role/addRole')).toBeNull();
      // Open a call: its parameters show, but no "Try it out" and no place to type a secret. The
      // operations show before Swagger UI says it is done, and until then the loading veil
      // (pointer-events: none) is over them, for a user as for this click.
      await waitFor(() => expect(view.closest('.ant-spin-spinning')).toBeNull(), { timeout: 20_000 });
      await userEvent.click(within(view).getByText('/open/v1/devices'));
      await within(view).findByText('pageNum');
      expect(within(view).queryByText('Try it out')).toBeNull();
      expect(view.querySelector('.authorize, .authorization__btn')).toBeNull();
      // Nothing was asked of another site (no validator badge, no fonts).
      const elsewhere = server.mock.calls.map(([input]) => String(input)).filter((u) => /^https?:/.test(u));
      expect(elsewhere).toEqual([]);
      expect(screen.getByTestId('api-document')).toHaveTextContent('Calls cannot be sent from this page');
      expect(screen.getByTestId('api-document-json')).toHaveAttribute('href', OPENAPI_DOCUMENT_URL);
    },
    SLOW_MS,
  );

  it(
    'opens from the keys tab and links back to the signing guide, in Chinese',
    async () => {
      await i18n.changeLanguage('zh-CN');
      serve();
      renderApp(OPEN_API_PATH);
      await userEvent.click(await screen.findByTestId('open-api-tab-document', {}, { timeout: 20_000 }));
      await waitFor(() => expect(currentLocation.path).toBe(`${OPEN_API_PATH}?tab=document`));
      const page = await screen.findByTestId('api-document');
      expect(page).toHaveTextContent('开放接口请求需用企业密钥签名');
      expect(page).toHaveTextContent('其界面文字为英文');
      await within(screen.getByTestId('api-document-view')).findByText(
        '/open/v1/devices',
        {},
        { timeout: 20_000 },
      );
      await userEvent.click(screen.getByTestId('api-document-signing-link'));
      await waitFor(() => expect(currentLocation.path).toBe(OPEN_API_PATH));
      expect(await screen.findByTestId('signing-guide')).toHaveTextContent('如何签名请求');
    },
    SLOW_MS,
  );

  it(
    'says when the document cannot be loaded, and loads it on retry',
    async () => {
      const server = serve();
      const answer = server.getMockImplementation()!;
      let failures = 1;
      server.mockImplementation(async (input, init) =>
        String(input) === OPENAPI_DOCUMENT_URL && failures-- > 0 ? json({}, 502) : answer(input, init),
      );
      renderApp(openApiTabUrl('document'));
      const error = await screen.findByTestId('api-document-error', {}, { timeout: 20_000 });
      expect(error).toHaveTextContent('The API document could not be loaded');
      await userEvent.click(within(error).getByTestId('api-document-retry'));
      await within(await screen.findByTestId('api-document-view')).findByText(
        '/open/v1/devices',
        {},
        { timeout: 20_000 },
      );
      expect(documentRequests(server)).toHaveLength(2);
      expect(screen.queryByTestId('api-document-error')).toBeNull();
    },
    SLOW_MS,
  );
});

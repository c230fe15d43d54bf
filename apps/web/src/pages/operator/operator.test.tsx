import {
  buildMenuEntries,
  type InventoryCsvPreview,
  MENU_TREE,
  OPERATOR_MENU_TREE,
  type OperatorCompanyView,
} from '@coldchain/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { type Handler, stubServer } from '../../test/fake-server';
import { renderApp, resetBrowserState } from '../../test/render-app';

const page = <T,>(list: T[]) => ({ list, total: list.length, pageNum: 1, pageSize: 20 });

const acme: OperatorCompanyView = {
  id: 'c7',
  name: 'Acme Cold',
  industry: 'food',
  region: '',
  address: '',
  disabled: false,
  createTime: Date.UTC(2025, 0, 1),
  memberCount: 3,
  deviceCount: 2,
  credits: 120,
  services: [
    { tag: 'service:logistics', expireTime: null, active: true },
    { tag: 'service:openApi', expireTime: null, active: true },
  ],
  supportAccessUntil: null,
};

/** An operator in no company: no company rights, only the operator area beside the personal pages. */
const operatorPowers = () => ({
  menus: buildMenuEntries(new Set(), new Set(), [...MENU_TREE, ...OPERATOR_MENU_TREE]),
  authTags: [],
  serviceAuthTags: [],
});

function serve(overrides: Record<string, Handler> = {}) {
  return stubServer({
    user: { isOperator: true, lastCompanyId: null, legalPerson: false },
    overrides: {
      '/api/index/getUserPowers': operatorPowers,
      '/api/index/getUserCompanys': () => [],
      '/api/operator/pageCompanies': () => page([acme]),
      '/api/operator/setServices': () => acme,
      '/api/operator/grantCredits': () => ({ ...acme, credits: 170 }),
      '/api/operator/pageInventory': () => page([]),
      '/api/operator/pageFeedback': () =>
        page([
          {
            id: 'f1',
            content: 'The map is slow',
            category: 7,
            images: [],
            createTime: Date.UTC(2025, 0, 2),
            account: 'li@example.com',
            userName: 'Li Wei',
            companyName: 'Acme Cold',
          },
        ]),
      ...overrides,
    },
  });
}

function bodies(server: ReturnType<typeof stubServer>, path: string) {
  return server.mock.calls
    .filter(([input]) => String(input) === path)
    .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>);
}

const SLOW_MS = 40_000;

beforeEach(async () => {
  resetBrowserState();
  localStorage.setItem('accessToken', 't');
  await i18n.changeLanguage('en');
});
afterEach(() => vi.unstubAllGlobals());

describe('operator console', () => {
  it(
    'opens for an operator in no company, with the operator menu',
    async () => {
      serve();
      renderApp('/operator');
      expect(await screen.findByTestId('company-row-c7')).toHaveTextContent('Acme Cold');
      const menus = screen.getAllByRole('menu');
      for (const title of ['Companies', 'Device inventory', 'Feedback received']) {
        expect(
          menus.some((menu) => within(menu).queryAllByText(title).length > 0),
          title,
        ).toBe(true);
      }
    },
    SLOW_MS,
  );

  it(
    'switches a service off with the others kept, and grants credit with a reason',
    async () => {
      const server = serve();
      renderApp('/operator/companies');
      await userEvent.click(await screen.findByTestId('company-manage-c7'));
      await userEvent.click(await screen.findByTestId('service-switch-logistics'));
      await userEvent.click(screen.getByTestId('services-save'));
      await waitFor(() =>
        expect(bodies(server, '/api/operator/setServices')).toEqual([
          { id: 'c7', services: [{ tag: 'service:openApi', expireTime: null }] },
        ]),
      );
      await userEvent.click(screen.getByTestId('credits-grant'));
      expect(await screen.findByText('Enter a whole number from 1 to 1,000,000')).toBeInTheDocument();
      await userEvent.type(screen.getByTestId('credits-amount'), '50');
      await userEvent.type(screen.getByTestId('credits-note'), 'goodwill');
      await userEvent.click(screen.getByTestId('credits-grant'));
      await waitFor(() =>
        expect(bodies(server, '/api/operator/grantCredits')).toEqual([
          { id: 'c7', amount: 50, note: 'goodwill' },
        ]),
      );
    },
    SLOW_MS,
  );

  it(
    'opens a company’s devices read-only only while it grants support access',
    async () => {
      const granted = { ...acme, supportAccessUntil: Date.now() + 3_600_000 };
      serve({
        '/api/operator/pageCompanies': () => page([granted, { ...acme, id: 'c8', name: 'Closed Co' }]),
        '/api/operator/pageSupportDevices': () =>
          page([
            {
              id: 'd1',
              serial: 'SN-1',
              name: 'Freezer 1',
              model: 'CC-T1',
              state: 1,
              lastSeenTime: null,
              sensors: [{ channel: 1, type: 'temperature', unit: '°C', value: -18.5, updateTime: null }],
            },
          ]),
      });
      renderApp('/operator/companies');
      await userEvent.click(await screen.findByTestId('company-manage-c8'));
      await screen.findByTestId('operator-company-drawer');
      expect(screen.queryByTestId('support-devices')).toBeNull();
      await userEvent.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByTestId('operator-company-drawer')).toBeNull());
      await userEvent.click(screen.getByTestId('company-manage-c7'));
      await userEvent.click(await screen.findByTestId('support-devices'));
      expect(await screen.findByTestId('support-device-d1')).toHaveTextContent('-18.5 °C');
    },
    SLOW_MS,
  );

  it(
    'lets a company administrator grant and revoke support access from the user menu',
    async () => {
      let until: number | null = null;
      const server = stubServer({
        overrides: {
          '/api/company/supportAccessStatus': () => ({ until }),
          '/api/company/setSupportAccess': (body) => {
            until = body.until as number | null;
            return { until };
          },
        },
      });
      renderApp('/home');
      await userEvent.click(await screen.findByTestId('user-menu'));
      await userEvent.click(await screen.findByTestId('menu-support-access'));
      expect(await screen.findByTestId('support-access-state')).toHaveTextContent('Closed');
      await userEvent.click(screen.getByTestId('support-access-grant'));
      await waitFor(() => expect(bodies(server, '/api/company/setSupportAccess')).toHaveLength(1));
      const sent = bodies(server, '/api/company/setSupportAccess')[0]!.until as number;
      expect(sent).toBeGreaterThan(Date.now());
      expect(await screen.findByText(/Open until/)).toBeInTheDocument();
      await userEvent.click(screen.getByTestId('support-access-revoke'));
      await waitFor(() =>
        expect(bodies(server, '/api/company/setSupportAccess').at(-1)).toEqual({ until: null }),
      );
      expect(await screen.findByText(/Closed/)).toBeInTheDocument();
    },
    SLOW_MS,
  );

  it(
    'previews an inventory CSV with its bad lines and imports only a clean one',
    async () => {
      const bad: InventoryCsvPreview = {
        lines: [{ serial: 'OPS-1', model: 'CC-T1', version: 'basic', channelCount: 1, exists: false }],
        problems: [{ line: 3, reason: 'version must be one of basic, standard, elite, premium' }],
      };
      const server = serve({ '/api/operator/previewInventory': () => bad });
      renderApp('/operator/inventory');
      const text = await screen.findByTestId('inventory-csv');
      await userEvent.type(text, 'serial,model,version,channels');
      await userEvent.click(screen.getByTestId('inventory-preview'));
      expect(await screen.findByTestId('inventory-problem-3')).toHaveTextContent(
        'Line 3: version must be one of basic, standard, elite, premium',
      );
      expect(screen.getByTestId('inventory-import')).toBeDisabled();
      expect(bodies(server, '/api/operator/importInventory')).toHaveLength(0);
    },
    SLOW_MS,
  );

  it(
    'lists the feedback received, in Chinese too',
    async () => {
      await i18n.changeLanguage('zh-CN');
      serve();
      renderApp('/operator/feedback');
      const row = await screen.findByTestId('feedback-row-f1');
      expect(row).toHaveTextContent('Li Wei (li@example.com)');
      expect(screen.getByTestId('page-title')).toHaveTextContent('意见反馈');
    },
    SLOW_MS,
  );
});

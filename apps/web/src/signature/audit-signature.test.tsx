import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../i18n';
import { allPowers, bodies, confirmPopup, type Overrides, tree } from '../pages/org/test-fixtures';
import { demoCompanies, stubServer } from '../test/fake-server';
import { renderApp, resetBrowserState } from '../test/render-app';
import { AUDIT_SIGNATURE_PATHS as PATHS } from './AuditSignatureCard';

const URL = '/user/organization';
const WAIT = { timeout: 20_000 };

beforeAll(async () => {
  await import('../pages/org/organization');
}, 60_000);

/** A company whose switch the fake server keeps, and whose userInfo follows it like the real one. */
function serve(initial: boolean, overrides: Overrides = {}) {
  let enabled = initial;
  return stubServer({
    overrides: {
      '/api/index/getUserPowers': allPowers,
      '/api/user/userOrganizeList': () => tree,
      '/api/user/joinRequestList': () => ({ list: [], total: 0, pageNum: 1, pageSize: 20 }),
      '/api/loginSecurity/getPasswordRenewal': () => ({ enabled: false, days: 90 }),
      [PATHS.get]: () => ({ enabled }),
      [PATHS.set]: (body) => {
        enabled = body.enabled === true;
        return null;
      },
      ...overrides,
    },
  });
}

const userInfoCalls = (server: ReturnType<typeof stubServer>) =>
  server.mock.calls.filter(([input]) => String(input) === '/api/user/userInfo').length;

beforeEach(async () => {
  resetBrowserState();
  localStorage.setItem('accessToken', 't');
  localStorage.setItem('companyId', 'c1');
  await i18n.changeLanguage('en');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('audit signature switch', () => {
  it('is turned on by the company administrator after a confirmation, and refreshes the session', async () => {
    const server = serve(false);
    renderApp(URL);
    const toggle = await screen.findByTestId('audit-signature-switch', {}, WAIT);
    await waitFor(() => expect(toggle).not.toBeDisabled());
    expect(toggle).not.toBeChecked();
    const infoBefore = userInfoCalls(server);
    await userEvent.click(toggle);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(
      'Every member must then enter their signature password to resolve alarms and export data.',
    );
    expect(bodies(server, PATHS.set)).toHaveLength(0);
    await confirmPopup();
    await waitFor(() => expect(bodies(server, PATHS.set)).toEqual([{ enabled: true }]));
    expect(await screen.findByText('Audit signature turned on')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('audit-signature-switch')).toBeChecked());
    // The session's signCheck draws the signature field everywhere: it is read again.
    await waitFor(() => expect(userInfoCalls(server)).toBeGreaterThan(infoBefore));
  }, 40_000);

  it('turns it off again, in Chinese', async () => {
    const server = serve(true);
    await i18n.changeLanguage('zh-CN');
    renderApp(URL);
    const toggle = await screen.findByTestId('audit-signature-switch', {}, WAIT);
    await waitFor(() => expect(toggle).toBeChecked());
    expect(screen.getByTestId('audit-signature-card')).toHaveTextContent('处理报警和导出数据需输入签名密码');
    await userEvent.click(toggle);
    const popup = await screen.findByRole('tooltip');
    expect(popup).toHaveTextContent('确定关闭审计签名');
    // antd spaces out a two-character Chinese label ("确 定"): the confirming button is the last one.
    await userEvent.click(within(popup).getAllByRole('button').at(-1)!);
    await waitFor(() => expect(bodies(server, PATHS.set)).toEqual([{ enabled: false }]));
    await waitFor(() => expect(screen.getByTestId('audit-signature-switch')).not.toBeChecked());
  });

  it('is hidden from members who do not administer the company', async () => {
    const server = serve(false, {
      '/api/index/getUserCompanys': () => demoCompanies.map((c) => ({ ...c, isAdmin: false })),
    });
    renderApp(URL);
    await screen.findByTestId('department-row-12', {}, WAIT);
    await waitFor(() => expect(screen.getByTestId('company-select')).toHaveTextContent('Demo Cold Chain'));
    expect(screen.queryByTestId('audit-signature-card')).toBeNull();
    expect(bodies(server, PATHS.get)).toHaveLength(0);
  });
});

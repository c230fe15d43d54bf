import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../i18n';
import { allPowers, bodies, member, type Overrides, page, tree } from '../pages/org/test-fixtures';
import { demoCompanies, stubServer } from '../test/fake-server';
import { renderApp, resetBrowserState } from '../test/render-app';
import { MEMBER_EXPORT_PATH } from './MemberExportSwitch';

const WAIT = { timeout: 20_000 };
const URL = '/user/personnelManagement';

beforeAll(async () => {
  await import('../pages/org/personnel');
}, 60_000);

/** One member whose export flag the fake server keeps, so a saved change reads back. */
function serve(overrides: Overrides = {}) {
  let exportExcel = true;
  return stubServer({
    overrides: {
      '/api/index/getUserPowers': allPowers,
      '/api/user/userOrganizeList': () => tree,
      '/api/role/pageRoles': () => page([]),
      '/api/personnel/pageUsers': () => page([member({ exportExcel })]),
      [MEMBER_EXPORT_PATH]: (body) => {
        exportExcel = body.enabled === true;
        return null;
      },
      ...overrides,
    },
  });
}

beforeEach(async () => {
  resetBrowserState();
  localStorage.setItem('accessToken', 't');
  localStorage.setItem('companyId', 'c1');
  await i18n.changeLanguage('en');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("a member's export flag", () => {
  it('is switched off by the company administrator on the personnel list', async () => {
    const server = serve();
    renderApp(URL);
    const toggle = await screen.findByTestId('member-export-2', {}, WAIT);
    expect(toggle).toBeChecked();
    expect(toggle).toHaveTextContent('Export');
    await userEvent.click(toggle);
    await waitFor(() =>
      expect(bodies(server, MEMBER_EXPORT_PATH)).toEqual([{ userId: '2', enabled: false }]),
    );
    expect(await screen.findByText('Export permission saved')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('member-export-2')).not.toBeChecked());
    expect(screen.getByTestId('member-export-2')).toHaveTextContent('No export');
  }, 40_000);

  it('is not offered to a member who does not administer the company', async () => {
    serve({ '/api/index/getUserCompanys': () => demoCompanies.map((c) => ({ ...c, isAdmin: false })) });
    renderApp(URL);
    await screen.findByTestId('member-row-2', {}, WAIT);
    await waitFor(() => expect(screen.getByTestId('company-select')).toHaveTextContent('Demo Cold Chain'));
    expect(screen.queryByTestId('member-export-2')).toBeNull();
    // user:edit still gives the other actions.
    expect(screen.getByTestId('member-assign-2')).toBeInTheDocument();
  });
});

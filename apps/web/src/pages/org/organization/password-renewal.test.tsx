import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../i18n';
import { demoCompanies, stubServer } from '../../../test/fake-server';
import { renderApp, resetBrowserState } from '../../../test/render-app';
import { allPowers, bodies, confirmPopup, type Overrides, tree } from '../test-fixtures';

const URL = '/user/organization';
const WAIT = { timeout: 20_000 };
const GET = '/api/loginSecurity/getPasswordRenewal';
const SET = '/api/loginSecurity/setPasswordRenewal';

// The page is loaded lazily by the router: load it once up front so each test's wait is for data.
beforeAll(async () => {
  await import('.');
}, 60_000);

/** A company whose renewal setting the fake server keeps, so a saved change reads back. */
function serve(initial: boolean, overrides: Overrides = {}) {
  let enabled = initial;
  return stubServer({
    overrides: {
      '/api/index/getUserPowers': allPowers,
      '/api/user/userOrganizeList': () => tree,
      '/api/user/joinRequestList': () => ({ list: [], total: 0, pageNum: 1, pageSize: 20 }),
      [GET]: () => ({ enabled, days: 90 }),
      [SET]: (body) => {
        enabled = body.enabled === true;
        return null;
      },
      ...overrides,
    },
  });
}

const switchOf = () => screen.findByTestId('password-renewal-switch', {}, WAIT);

beforeEach(async () => {
  resetBrowserState();
  localStorage.setItem('accessToken', 't');
  localStorage.setItem('companyId', 'c1');
  await i18n.changeLanguage('en');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('company password renewal', () => {
  it('lets the company administrator turn it on after a confirmation explaining the effect', async () => {
    const server = serve(false);
    renderApp(URL);
    const toggle = await switchOf();
    await waitFor(() => expect(toggle).not.toBeDisabled());
    expect(toggle).not.toBeChecked();
    expect(screen.getByTestId('password-renewal-card')).toHaveTextContent(
      'Require a password change every 90 days',
    );
    await userEvent.click(toggle);
    const popup = await screen.findByRole('tooltip');
    expect(popup).toHaveTextContent(
      'Members whose password is older than 90 days must change it at their next login.',
    );
    // Nothing is sent before the confirmation.
    expect(bodies(server, SET)).toHaveLength(0);
    await confirmPopup();
    await waitFor(() => expect(bodies(server, SET)).toEqual([{ enabled: true }]));
    expect(await screen.findByText('Password renewal turned on')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('password-renewal-switch')).toBeChecked());
  });

  it('turns it off again', async () => {
    const server = serve(true);
    renderApp(URL);
    const toggle = await switchOf();
    await waitFor(() => expect(toggle).toBeChecked());
    await userEvent.click(toggle);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(
      'Members will no longer be asked to change their password every 90 days.',
    );
    await confirmPopup();
    await waitFor(() => expect(bodies(server, SET)).toEqual([{ enabled: false }]));
    await waitFor(() => expect(screen.getByTestId('password-renewal-switch')).not.toBeChecked());
  });

  it('sends nothing when the administrator cancels', async () => {
    const server = serve(false);
    renderApp(URL);
    const toggle = await switchOf();
    await waitFor(() => expect(toggle).not.toBeDisabled());
    await userEvent.click(toggle);
    const popup = await screen.findByRole('tooltip');
    await userEvent.click(within(popup).getByRole('button', { name: /cancel/i }));
    expect(bodies(server, SET)).toHaveLength(0);
    expect(toggle).not.toBeChecked();
  });

  it('is hidden from members who do not administer the company, and the setting is not asked for', async () => {
    const server = serve(false, {
      '/api/index/getUserCompanys': () => demoCompanies.map((c) => ({ ...c, isAdmin: false })),
    });
    renderApp(URL);
    await screen.findByTestId('department-row-12', {}, WAIT);
    // The company list has arrived (the header names the company): an administrator would see the card now.
    await waitFor(() => expect(screen.getByTestId('company-select')).toHaveTextContent('Demo Cold Chain'));
    expect(screen.queryByTestId('password-renewal-card')).toBeNull();
    expect(bodies(server, GET)).toHaveLength(0);
  });

  it('explains the setting in Chinese', async () => {
    serve(false);
    await i18n.changeLanguage('zh-CN');
    renderApp(URL);
    const toggle = await switchOf();
    await waitFor(() => expect(toggle).not.toBeDisabled());
    expect(screen.getByTestId('password-renewal-card')).toHaveTextContent('要求每 90 天修改一次密码');
    await userEvent.click(toggle);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(
      '密码已使用超过 90 天的成员须在下次登录时修改密码',
    );
  });
});

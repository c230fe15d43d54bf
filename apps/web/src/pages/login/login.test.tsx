import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { calledPaths, sentBody, stubServer } from '../../test/fake-server';
import { currentLocation, renderApp, resetBrowserState } from '../../test/render-app';
import { safeRedirect } from '.';

/** Navigation after a login renders the layout, which is slow on the shared 2-core machine. */
const NAV = { timeout: 20_000 };

beforeEach(async () => {
  resetBrowserState();
  await i18n.changeLanguage('en');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

async function fillAndSubmit(account: string, password: string) {
  await userEvent.type(await screen.findByTestId('login-account'), account);
  await userEvent.type(screen.getByTestId('login-password'), password);
}

describe('login page', () => {
  it('with remember checked, stores account and password cookies for 7 days and goes to the redirect', async () => {
    const set = vi.spyOn(Cookies, 'set');
    const fetchMock = stubServer();
    renderApp(`/login?redirect=${encodeURIComponent('/alarm/alarmInfo')}`);
    await fillAndSubmit('demo@example.com', 'Demo1234');
    await userEvent.click(screen.getByTestId('login-remember'));
    await userEvent.click(screen.getByTestId('login-submit'));
    await waitFor(() => expect(currentLocation.path).toBe('/alarm/alarmInfo'), NAV);

    const options = { expires: 7, sameSite: 'Strict', secure: false };
    expect(set).toHaveBeenCalledWith('account', 'demo@example.com', options);
    expect(set).toHaveBeenCalledWith('password', 'Demo1234', options);
    expect(Cookies.get('account')).toBe('demo@example.com');
    expect(localStorage.getItem('accessToken')).toBe('token-1');
    expect(localStorage.getItem('companyId')).toBe('c1');
    expect(sentBody(fetchMock, '/api/doLogin')).toEqual({
      account: 'demo@example.com',
      password: 'Demo1234',
      type: 1,
      platform: 1,
      deviceId: localStorage.getItem('deviceId'),
    });
    expect(localStorage.getItem('deviceId')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('prefills from the cookies, and unchecking remember clears them', async () => {
    Cookies.set('account', '13800000000');
    Cookies.set('password', 'Secret123');
    stubServer();
    renderApp('/login');
    expect(await screen.findByTestId('login-account')).toHaveValue('13800000000');
    expect(screen.getByTestId('login-password')).toHaveValue('Secret123');
    expect(screen.getByTestId('login-remember')).toBeChecked();
    await userEvent.click(screen.getByTestId('login-remember'));
    await userEvent.click(screen.getByTestId('login-submit'));
    await waitFor(() => expect(currentLocation.path).toBe('/home'), NAV);
    expect(Cookies.get('account')).toBeUndefined();
    expect(Cookies.get('password')).toBeUndefined();
  });

  it('uses the first company when the last used one is unknown', async () => {
    stubServer({ user: { lastCompanyId: null } });
    renderApp('/login');
    await fillAndSubmit('demo@example.com', 'Demo1234');
    await userEvent.click(screen.getByTestId('login-submit'));
    await waitFor(() => expect(currentLocation.path).toBe('/home'), NAV);
    expect(localStorage.getItem('companyId')).toBe('c1');
  });

  it('rejects an account that is neither a mobile number nor an e-mail without calling the server', async () => {
    const fetchMock = stubServer();
    renderApp('/login');
    await fillAndSubmit('not an account', 'Demo1234');
    await userEvent.click(screen.getByTestId('login-submit'));
    expect(await screen.findByText('Please enter a correct mobile number or e-mail')).toBeInTheDocument();
    expect(calledPaths(fetchMock)).not.toContain('/api/doLogin');
  });

  it('shows the server message on a wrong password and stays on /login without remembering', async () => {
    stubServer({
      overrides: {
        '/api/doLogin': new Response(
          JSON.stringify({ msgCode: 500, msgContent: 'Account or password is incorrect', data: null }),
          { headers: { 'Content-Type': 'application/json' } },
        ),
      },
    });
    renderApp('/login');
    await fillAndSubmit('demo@example.com', 'Wrong1234');
    await userEvent.click(screen.getByTestId('login-remember'));
    await userEvent.click(screen.getByTestId('login-submit'));
    expect(await screen.findByText('Account or password is incorrect')).toBeInTheDocument();
    expect(currentLocation.path).toBe('/login');
    expect(Cookies.get('account')).toBeUndefined();
  });

  it('follows only same-site redirects', () => {
    expect(safeRedirect('/alarm/alarmInfo')).toBe('/alarm/alarmInfo');
    expect(safeRedirect('//evil.example.com')).toBe('/home');
    expect(safeRedirect('https://evil.example.com')).toBe('/home');
    expect(safeRedirect(null)).toBe('/home');
  });
});

import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { calledPaths, envelope, sentBody, stubServer } from '../../test/fake-server';
import { currentLocation, renderApp, resetBrowserState } from '../../test/render-app';

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

const areaCodes = () => [
  { code: '+60', en: 'Malaysia', cn: '马来西亚' },
  { code: '+86', en: 'China', cn: '中国' },
];

describe('/register', () => {
  it('registers a mobile number with its area code, counts the resend down, logs in and goes to /addTeam', async () => {
    const fetchMock = stubServer({
      overrides: {
        '/api/getInternationalAreaCode': areaCodes,
        '/api/register/getPhoneCode': () => ({ channel: 'sms' }),
        '/api/register/registerAccount': () => ({ id: '7' }),
      },
    });
    renderApp('/register');
    expect(await screen.findByTestId('page-title')).toHaveTextContent('Register');
    await userEvent.click(screen.getByTestId('register-send-code'));
    expect(await screen.findByText('Please enter your mobile number')).toBeInTheDocument();
    expect(calledPaths(fetchMock)).not.toContain('/api/register/getPhoneCode');

    await userEvent.type(screen.getByTestId('register-mobile'), '0123456789');
    await userEvent.click(screen.getByTestId('register-send-code'));
    expect(await screen.findByText('Resend in 60 s')).toBeInTheDocument();
    expect(screen.getByTestId('register-send-code')).toBeDisabled();
    expect(sentBody(fetchMock, '/api/register/getPhoneCode')).toEqual({ account: '+60123456789' });

    await userEvent.type(screen.getByTestId('register-code'), '654321');
    await userEvent.type(screen.getByTestId('register-password'), 'Secret123');
    await userEvent.type(screen.getByTestId('register-confirm'), 'Secret124');
    await userEvent.click(screen.getByTestId('register-submit'));
    expect(await screen.findByText('Both Password Enter Not Match')).toBeInTheDocument();
    expect(calledPaths(fetchMock)).not.toContain('/api/register/registerAccount');

    await userEvent.clear(screen.getByTestId('register-confirm'));
    await userEvent.type(screen.getByTestId('register-confirm'), 'Secret123');
    await userEvent.click(screen.getByTestId('register-submit'));
    await waitFor(() => expect(currentLocation.path).toBe('/addTeam'), NAV);
    expect(sentBody(fetchMock, '/api/register/registerAccount')).toEqual({
      account: '+60123456789',
      code: '654321',
      password: 'Secret123',
    });
    expect(sentBody(fetchMock, '/api/doLogin')).toMatchObject({
      account: '+60123456789',
      password: 'Secret123',
    });
  }, 30_000);

  it('checks the e-mail and password rules in Chinese', async () => {
    await i18n.changeLanguage('zh-CN');
    stubServer({ overrides: { '/api/getInternationalAreaCode': areaCodes } });
    renderApp('/register');
    await userEvent.click(await screen.findByText('邮箱'));
    await userEvent.type(await screen.findByTestId('register-email'), 'not-an-email');
    await userEvent.type(screen.getByTestId('register-password'), 'short');
    await userEvent.click(screen.getByTestId('register-submit'));
    expect(await screen.findByText('请输入正确的邮箱')).toBeInTheDocument();
    expect(await screen.findAllByText('8-20 位英文字母和数字')).not.toHaveLength(0);
    expect(await screen.findByText('请输入 6 位验证码')).toBeInTheDocument();
  });
});

describe('/forget', () => {
  it('recovers the password in three steps and returns to login', async () => {
    const fetchMock = stubServer({
      overrides: {
        '/api/verifyAccount': () => ({ exists: true }),
        '/api/getAccountCode': () => ({ channel: 'email' }),
        '/api/checkCode': () => ({ ticket: 'k'.repeat(43) }),
        '/api/resetPassword': () => null,
      },
    });
    renderApp('/forget');
    await userEvent.type(await screen.findByTestId('forget-account'), 'demo@example.com');
    await userEvent.click(screen.getByTestId('forget-next'));
    expect(await screen.findByTestId('forget-account-shown')).toHaveValue('demo@example.com');
    await userEvent.click(screen.getByTestId('forget-send-code'));
    expect(await screen.findByText('Resend in 60 s')).toBeInTheDocument();
    await userEvent.type(screen.getByTestId('forget-code'), '112233');
    await userEvent.click(screen.getByTestId('forget-verify'));
    await userEvent.type(await screen.findByTestId('forget-password'), 'NewPass123');
    await userEvent.type(screen.getByTestId('forget-confirm'), 'NewPass123');
    await userEvent.click(screen.getByTestId('forget-submit'));
    await waitFor(() => expect(currentLocation.path).toBe('/login'), NAV);
    expect(sentBody(fetchMock, '/api/checkCode')).toEqual({ account: 'demo@example.com', code: '112233' });
    expect(sentBody(fetchMock, '/api/resetPassword')).toEqual({
      account: 'demo@example.com',
      ticket: 'k'.repeat(43),
      password: 'NewPass123',
      confirmPassword: 'NewPass123',
    });
  }, 30_000);

  it('stays on the first step when the server does not know the account', async () => {
    stubServer({
      overrides: { '/api/verifyAccount': envelope(null, 500, 'This account is not registered') },
    });
    renderApp('/forget');
    await userEvent.type(await screen.findByTestId('forget-account'), 'nobody@example.com');
    await userEvent.click(screen.getByTestId('forget-next'));
    expect(await screen.findByText('This account is not registered')).toBeInTheDocument();
    expect(screen.getByTestId('forget-account')).toBeInTheDocument();
  });
});

describe('/updatePassword', () => {
  it('changes the password with the renewal token, then sends the user to log in again', async () => {
    localStorage.setItem('accessToken', 'renew-token');
    const fetchMock = stubServer({ overrides: { '/api/user/updatePassword': () => ({ loggedOut: true }) } });
    renderApp('/updatePassword');
    await userEvent.type(await screen.findByTestId('update-old'), 'OldPass123');
    await userEvent.type(screen.getByTestId('update-password'), 'NewPass123');
    await userEvent.type(screen.getByTestId('update-confirm'), 'NewPass12');
    await userEvent.click(screen.getByTestId('update-submit'));
    expect(await screen.findByText('Both Password Enter Not Match')).toBeInTheDocument();
    await userEvent.type(screen.getByTestId('update-confirm'), '3');
    await userEvent.click(screen.getByTestId('update-submit'));
    await waitFor(() => expect(currentLocation.path).toBe('/login'), NAV);
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(sentBody(fetchMock, '/api/user/updatePassword')).toEqual({
      oldPassword: 'OldPass123',
      password: 'NewPass123',
      confirmPassword: 'NewPass123',
    });
    expect(calledPaths(fetchMock)).not.toContain('/api/user/userInfo');
  });

  it('without a token goes to /login', async () => {
    stubServer();
    renderApp('/updatePassword');
    await waitFor(() => expect(currentLocation.path).toBe('/login'), NAV);
  });
});

describe('/qrConfirm', () => {
  it('marks the ticket scanned and confirms the login of the computer', async () => {
    localStorage.setItem('accessToken', 'phone-token');
    const fetchMock = stubServer({
      overrides: {
        '/api/qrLogin/scanTicket': () => ({ expireTime: Date.now() + 60_000 }),
        '/api/qrLogin/confirmTicket': () => null,
      },
    });
    renderApp(`/qrConfirm?ticket=${'q'.repeat(43)}`);
    await userEvent.click(await screen.findByTestId('qr-confirm'));
    expect(
      await screen.findByText('The computer is now logged in. You can close this page.'),
    ).toBeInTheDocument();
    expect(sentBody(fetchMock, '/api/qrLogin/scanTicket')).toEqual({ ticket: 'q'.repeat(43) });
    expect(sentBody(fetchMock, '/api/qrLogin/confirmTicket')).toEqual({ ticket: 'q'.repeat(43) });
  });

  it('an expired ticket tells the phone to scan again', async () => {
    localStorage.setItem('accessToken', 'phone-token');
    stubServer({
      overrides: {
        '/api/qrLogin/scanTicket': envelope(
          null,
          500,
          'Verification code invalid; click the QR code to refresh',
        ),
      },
    });
    renderApp(`/qrConfirm?ticket=${'q'.repeat(43)}`);
    expect(
      await screen.findAllByText('Verification code invalid; click the QR code to refresh'),
    ).not.toHaveLength(0);
    expect(screen.queryByTestId('qr-confirm')).toBeNull();
  });

  it('requires login', async () => {
    stubServer();
    renderApp(`/qrConfirm?ticket=${'q'.repeat(43)}`);
    await waitFor(() => expect(currentLocation.path).toMatch(/^\/login\?redirect=%2FqrConfirm/), NAV);
  });
});

import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
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

const loginBodies = (fetchMock: ReturnType<typeof stubServer>) =>
  fetchMock.mock.calls
    .filter(([input]) => String(input) === '/api/doLogin')
    .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>);

describe('login page: abnormal login, QR and address code', () => {
  it('asks for the code sent to the account, then logs in with it', async () => {
    let calls = 0;
    const fetchMock = stubServer({
      overrides: {
        '/api/doLogin': (body) =>
          ++calls === 1
            ? { needCode: true, channel: 'email' }
            : body.code === '123456'
              ? { accessToken: 'token-2', expireTime: Date.now() + 60_000 }
              : null,
      },
    });
    renderApp('/login');
    await userEvent.type(await screen.findByTestId('login-account'), 'demo@example.com');
    await userEvent.type(screen.getByTestId('login-password'), 'Demo1234');
    await userEvent.click(screen.getByTestId('login-remember'));
    await userEvent.click(screen.getByTestId('login-submit'));
    expect(await screen.findByTestId('login-code-hint')).toHaveTextContent(
      'Enter the code we sent to your e-mail.',
    );
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(Cookies.get('account')).toBeUndefined();

    await userEvent.click(screen.getByTestId('login-submit'));
    expect(await screen.findByText('Please enter the 6-digit verification code')).toBeInTheDocument();
    await userEvent.type(screen.getByTestId('login-code'), '123456');
    await userEvent.click(screen.getByTestId('login-submit'));
    await waitFor(() => expect(currentLocation.path).toBe('/home'), NAV);
    expect(localStorage.getItem('accessToken')).toBe('token-2');
    expect(Cookies.get('account')).toBe('demo@example.com');
    const bodies = loginBodies(fetchMock);
    expect(bodies).toHaveLength(2);
    expect(bodies[0]).not.toHaveProperty('code');
    expect(bodies[1]).toMatchObject({ code: '123456', deviceId: bodies[0]!.deviceId });
  });

  it('a 301 answer (password renewal) stores the token and opens /updatePassword', async () => {
    stubServer({
      overrides: {
        '/api/doLogin': envelope(
          { accessToken: 'renew-token', expireTime: 1 },
          301,
          'Your password is older than 90 days; please change it',
        ),
      },
    });
    renderApp('/login');
    await userEvent.type(await screen.findByTestId('login-account'), 'demo@example.com');
    await userEvent.type(screen.getByTestId('login-password'), 'Demo1234');
    await userEvent.click(screen.getByTestId('login-submit'));
    await waitFor(() => expect(currentLocation.path).toBe('/updatePassword'), NAV);
    expect(localStorage.getItem('accessToken')).toBe('renew-token');
    expect(await screen.findByTestId('update-old')).toBeInTheDocument();
    expect(screen.getByText('Your password is older than 90 days; please change it')).toBeInTheDocument();
  });

  it('the QR tab shows a ticket, polls it and logs in when the phone confirms', async () => {
    let polls = 0;
    const fetchMock = stubServer({
      overrides: {
        '/api/qrLogin/createTicket': () => ({ ticket: 't'.repeat(43), expireTime: Date.now() + 120_000 }),
        '/api/qrLogin/pollTicket': () =>
          ++polls === 1 ? { state: 'scanned' } : { state: 'confirmed', accessToken: 'qr-token' },
      },
    });
    renderApp('/login');
    await userEvent.click(await screen.findByText('Scan QR code'));
    expect(await screen.findByTestId('qr-login')).toBeInTheDocument();
    expect(await screen.findByTestId('qr-scanned')).toHaveTextContent(
      'Scanned. Confirm the login on your phone.',
    );
    await waitFor(() => expect(currentLocation.path).toBe('/home'));
    expect(localStorage.getItem('accessToken')).toBe('qr-token');
    expect(sentBody(fetchMock, '/api/qrLogin/pollTicket')).toEqual({ ticket: 't'.repeat(43) });
  }, 15_000);

  it('an expired QR code says so, and a click fetches a new one', async () => {
    const fetchMock = stubServer({
      overrides: {
        '/api/qrLogin/createTicket': () => ({ ticket: 'x'.repeat(43), expireTime: Date.now() + 120_000 }),
        '/api/qrLogin/pollTicket': () => ({ state: 'expired' }),
      },
    });
    renderApp('/login');
    await userEvent.click(await screen.findByText('Scan QR code'));
    const expired = await screen.findByTestId('qr-expired');
    expect(expired).toHaveTextContent('Verification code invalid; click the QR code to refresh');
    expect(calledPaths(fetchMock).filter((p) => p === '/api/qrLogin/createTicket')).toHaveLength(1);
    await userEvent.click(expired);
    await waitFor(() =>
      expect(calledPaths(fetchMock).filter((p) => p === '/api/qrLogin/createTicket')).toHaveLength(2),
    );
    await waitFor(() => expect(screen.queryByTestId('qr-expired')).toBeNull());
  }, 15_000);

  it('shows the QR texts in Chinese', async () => {
    await i18n.changeLanguage('zh-CN');
    stubServer({
      overrides: {
        '/api/qrLogin/createTicket': () => ({ ticket: 'y'.repeat(43), expireTime: Date.now() - 1 }),
        '/api/qrLogin/pollTicket': () => ({ state: 'waiting' }),
      },
    });
    renderApp('/login');
    await userEvent.click(await screen.findByText('扫码登录'));
    expect(await screen.findByTestId('qr-expired')).toHaveTextContent('二维码已失效，请点击二维码刷新');
  }, 15_000);

  it('a login link with an address code logs in by itself', async () => {
    const fetchMock = stubServer({
      overrides: { '/api/doLoginCode': () => ({ accessToken: 'kiosk-token', expireTime: 1 }) },
    });
    renderApp('/login?addressCode=ABCDEFGHJK&redirect=%2Falarm%2FalarmInfo');
    await waitFor(() => expect(currentLocation.path).toBe('/alarm/alarmInfo'), NAV);
    expect(localStorage.getItem('accessToken')).toBe('kiosk-token');
    expect(sentBody(fetchMock, '/api/doLoginCode')).toEqual({ account: 'ABCDEFGHJK', type: 3, platform: 1 });
  });

  it('a refused address code leaves the user on the login form', async () => {
    stubServer({
      overrides: {
        '/api/doLoginCode': envelope(
          null,
          500,
          'This login link is invalid, used or expired; ask for a new one',
        ),
      },
    });
    renderApp('/login?addressCode=ABCDEFGHJK');
    expect(await screen.findByTestId('login-submit')).toBeInTheDocument();
    expect(
      await screen.findByText('This login link is invalid, used or expired; ask for a new one'),
    ).toBeInTheDocument();
    expect(currentLocation.path).toBe('/login');
  });
});

describe('login page: verification-code login', () => {
  it('sends a code to the account and logs in with it (type 2)', async () => {
    const fetchMock = stubServer({
      overrides: {
        '/api/sendCode': () => ({ channel: 'email' }),
        '/api/doLogin': () => ({ accessToken: 'code-token', expireTime: 1 }),
      },
    });
    renderApp('/login');
    await userEvent.click(await screen.findByText('Code login'));
    await userEvent.click(await screen.findByTestId('code-login-send'));
    expect(await screen.findByText('Please enter your mobile number or e-mail')).toBeInTheDocument();
    await userEvent.type(screen.getByTestId('code-login-account'), 'demo@example.com');
    await userEvent.click(screen.getByTestId('code-login-send'));
    expect(await screen.findByText('Resend in 60 s')).toBeInTheDocument();
    await userEvent.type(screen.getByTestId('code-login-code'), '246810');
    await userEvent.click(screen.getByTestId('code-login-submit'));
    await waitFor(() => expect(currentLocation.path).toBe('/home'), NAV);
    expect(localStorage.getItem('accessToken')).toBe('code-token');
    expect(sentBody(fetchMock, '/api/sendCode')).toEqual({ account: 'demo@example.com' });
    expect(sentBody(fetchMock, '/api/doLogin')).toMatchObject({
      account: 'demo@example.com',
      code: '246810',
      type: 2,
    });
  });
});

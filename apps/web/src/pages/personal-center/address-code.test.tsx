import type { PersonalInfo } from '@coldchain/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { stubServer } from '../../test/fake-server';
import { renderApp, resetBrowserState } from '../../test/render-app';

const PAGE = '/user/personalCenter';
const CREATE = '/api/loginCode/createAddressCode';
const EXPIRES = Date.UTC(2025, 5, 2, 8, 0, 0);

const info: PersonalInfo = {
  id: 'u1',
  account: 'demo@example.com',
  name: 'Demo Admin',
  gender: 0,
  phone: '',
  email: 'demo@example.com',
  altPhone: '',
  headImg: '',
  pcAlarmVoice: false,
  signPasswordSet: false,
  wechatBound: false,
  wechatFollowed: false,
  company: 'Demo Cold Chain',
  department: 'Head office',
  role: 'Administrator',
};

/** Each call issues the next code, as the server does. */
function serve() {
  const codes = ['ABCDEFGHJK', 'MNPQRSTUVW'];
  return stubServer({
    overrides: {
      '/api/user/personalInfo': () => info,
      '/api/user/userNoticeList': () => ({ list: [], total: 0, pageNum: 1, pageSize: 10 }),
      [CREATE]: () => ({ code: codes.shift(), expireTime: EXPIRES }),
    },
  });
}

function calls(server: ReturnType<typeof stubServer>) {
  return server.mock.calls.filter(([input]) => String(input) === CREATE);
}

function stubClipboard(writeText: ReturnType<typeof vi.fn>) {
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
}

const linkOf = (code: string) => `${window.location.origin}/login?addressCode=${code}`;

async function openCard() {
  renderApp(PAGE);
  return screen.findByTestId('address-code-card');
}

beforeEach(async () => {
  resetBrowserState();
  localStorage.setItem('accessToken', 't');
  localStorage.setItem('companyId', 'c1');
  await i18n.changeLanguage('en');
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('personal centre: wall screen login link', () => {
  it('creates a one-time link only when asked, shows its expiry and copies it', async () => {
    const server = serve();
    const writeText = vi.fn().mockResolvedValue(undefined);
    stubClipboard(writeText);
    const card = await openCard();
    expect(card).toHaveTextContent('Log in a wall screen');
    // No code is issued just by opening the page.
    expect(calls(server)).toHaveLength(0);
    expect(screen.queryByTestId('address-code-link')).toBeNull();

    await userEvent.click(screen.getByTestId('address-code-create'));
    const link = await screen.findByTestId('address-code-link');
    expect(link).toHaveValue(linkOf('ABCDEFGHJK'));
    expect(calls(server)).toHaveLength(1);
    expect(JSON.parse(String(calls(server)[0]?.[1]?.body))).toEqual({});
    const expiry = screen.getByTestId('address-code-expiry');
    expect(expiry).toHaveTextContent(/works once, until \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
    expect(expiry).toHaveTextContent('24 hours');

    await userEvent.click(screen.getByTestId('address-code-copy'));
    expect(writeText).toHaveBeenCalledWith(linkOf('ABCDEFGHJK'));
    expect(await screen.findByText('Link copied')).toBeInTheDocument();
  });

  it('replaces the link with a new one on request', async () => {
    const server = serve();
    await openCard();
    await userEvent.click(screen.getByTestId('address-code-create'));
    expect(await screen.findByTestId('address-code-link')).toHaveValue(linkOf('ABCDEFGHJK'));
    expect(screen.getByTestId('address-code-create')).toHaveTextContent('Create a new link');
    // Asked again later than a double click (the 1 s guard of api/double-click-guard.ts ignores those).
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await userEvent.click(screen.getByTestId('address-code-create'));
    await waitFor(() => expect(screen.getByTestId('address-code-link')).toHaveValue(linkOf('MNPQRSTUVW')));
    expect(calls(server)).toHaveLength(2);
  });

  it("says 'Copy failed' when the clipboard refuses", async () => {
    serve();
    stubClipboard(vi.fn().mockRejectedValue(new Error('denied')));
    await openCard();
    await userEvent.click(screen.getByTestId('address-code-create'));
    await userEvent.click(await screen.findByTestId('address-code-copy'));
    expect(await screen.findByText('Copy failed')).toBeInTheDocument();
  });

  it('speaks Chinese to a Chinese user', async () => {
    serve();
    stubClipboard(vi.fn().mockRejectedValue(new Error('denied')));
    await i18n.changeLanguage('zh-CN');
    const card = await openCard();
    expect(card).toHaveTextContent('大屏登录');
    await userEvent.click(screen.getByTestId('address-code-create'));
    expect(await screen.findByTestId('address-code-expiry')).toHaveTextContent('链接仅可使用一次');
    await userEvent.click(screen.getByTestId('address-code-copy'));
    expect(await screen.findByText('复制失败')).toBeInTheDocument();
  });
});

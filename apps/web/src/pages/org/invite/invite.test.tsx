import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../i18n';
import { envelope, stubServer } from '../../../test/fake-server';
import { currentLocation, renderApp, resetBrowserState } from '../../../test/render-app';
import { bodies, type Overrides } from '../test-fixtures';

const WAIT = { timeout: 20_000 };
const INFO = '/api/userOrganize/getOrganizeInviteById';
const JOIN = '/api/userOrganize/inviteJoinOrganize';

const validInvite = {
  companyName: 'Demo Cold Chain',
  departmentName: 'Pharmacy',
  inviterName: 'Demo Admin',
  expireTime: Date.UTC(2025, 5, 2, 8, 0, 0),
  valid: true,
};

function serve(overrides: Overrides = {}) {
  return stubServer({
    overrides: { [INFO]: () => validInvite, [JOIN]: () => null, ...overrides },
  });
}

beforeEach(async () => {
  resetBrowserState();
  await i18n.changeLanguage('en');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('invitation landing page', () => {
  it('names the company, department and inviter, and sends a visitor to log in and back', async () => {
    const server = serve();
    renderApp('/invite?id=abc123');
    const info = await screen.findByTestId('invite-info', {}, WAIT);
    expect(info).toHaveTextContent('Demo Cold Chain');
    expect(info).toHaveTextContent('Pharmacy');
    expect(info).toHaveTextContent('Demo Admin');
    expect(bodies(server, INFO)).toEqual([{ id: 'abc123' }]);
    expect(screen.queryByTestId('invite-join')).toBeNull();

    await userEvent.click(screen.getByTestId('invite-login'));
    expect(currentLocation.path).toBe(`/login?redirect=${encodeURIComponent('/invite?id=abc123')}`);
    await userEvent.type(await screen.findByTestId('login-account', {}, WAIT), 'demo@example.com');
    await userEvent.type(screen.getByTestId('login-password'), 'Password123');
    await userEvent.click(screen.getByTestId('login-submit'));
    await waitFor(() => expect(currentLocation.path).toBe('/invite?id=abc123'), WAIT);
    expect(await screen.findByTestId('invite-join', {}, WAIT)).toBeInTheDocument();
  });

  it('offers to register, coming back to the invitation', async () => {
    serve();
    renderApp('/invite?id=abc123');
    await userEvent.click(await screen.findByTestId('invite-register', {}, WAIT));
    expect(currentLocation.path).toBe(`/register?redirect=${encodeURIComponent('/invite?id=abc123')}`);
  });

  it("shows 'Link broken' for an expired or unknown link", async () => {
    serve({ [INFO]: () => ({ ...validInvite, valid: false }) });
    renderApp('/invite?id=old');
    expect(await screen.findByTestId('invite-broken', {}, WAIT)).toHaveTextContent('Link broken');
    expect(screen.queryByTestId('invite-info')).toBeNull();
  });

  it('shows the broken link without an id, in Chinese too', async () => {
    const server = serve();
    await i18n.changeLanguage('zh-CN');
    renderApp('/invite');
    expect(await screen.findByTestId('invite-broken', {}, WAIT)).toHaveTextContent('链接已失效');
    expect(server.mock.calls.some(([input]) => String(input) === INFO)).toBe(false);
  });

  it('lets a logged-in user apply through the link and says the person in charge approves', async () => {
    localStorage.setItem('accessToken', 't');
    const server = serve();
    renderApp('/invite?id=abc123');
    await userEvent.click(await screen.findByTestId('invite-join', {}, WAIT));
    expect(await screen.findByTestId('invite-joined', {}, WAIT)).toHaveTextContent(
      'Application sent; please wait for the person in charge to approve it',
    );
    expect(bodies(server, JOIN)).toEqual([{ id: 'abc123' }]);
    await userEvent.click(screen.getByTestId('invite-home'));
    await waitFor(() => expect(currentLocation.path).toBe('/home'));
  });

  it('stays on the invitation when the server refuses the join (its message is shown)', async () => {
    localStorage.setItem('accessToken', 't');
    serve({ [JOIN]: envelope(null, 500, 'You are already a member of this company') });
    renderApp('/invite?id=abc123');
    await userEvent.click(await screen.findByTestId('invite-join', {}, WAIT));
    expect(await screen.findByText('You are already a member of this company')).toBeInTheDocument();
    expect(screen.queryByTestId('invite-joined')).toBeNull();
    expect(screen.getByTestId('invite-join')).toBeInTheDocument();
  });
});

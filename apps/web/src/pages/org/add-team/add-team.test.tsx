import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../i18n';
import { stubServer } from '../../../test/fake-server';
import { currentLocation, renderApp, resetBrowserState } from '../../../test/render-app';
import { bodies, choose, type Overrides } from '../test-fixtures';

const WAIT = { timeout: 20_000 };

function serve(overrides: Overrides = {}) {
  return stubServer({
    overrides: {
      '/api/user/joinOrganize': () => ({ id: '41' }),
      '/api/user/createCompany': () => ({ id: 'c9' }),
      '/api/user/industryList': () => [
        { value: 'food', label: 'Food' },
        { value: 'pharma', label: 'Pharmaceutical' },
      ],
      ...overrides,
    },
  });
}

beforeEach(async () => {
  resetBrowserState();
  await i18n.changeLanguage('en');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('join a team', () => {
  it('needs a login and comes back after it', async () => {
    serve();
    renderApp('/addTeam');
    await waitFor(
      () => expect(currentLocation.path).toBe(`/login?redirect=${encodeURIComponent('/addTeam')}`),
      WAIT,
    );
  });

  it('applies with a 12-digit department code and a remark', async () => {
    localStorage.setItem('accessToken', 't');
    const server = serve();
    renderApp('/addTeam');
    await userEvent.type(await screen.findByTestId('join-code', {}, WAIT), '12345');
    await userEvent.click(screen.getByTestId('join-submit'));
    expect(await screen.findByText('Department code must be 12 digits')).toBeInTheDocument();
    expect(bodies(server, '/api/user/joinOrganize')).toHaveLength(0);

    await userEvent.clear(screen.getByTestId('join-code'));
    await userEvent.type(screen.getByTestId('join-code'), '100000000002');
    await userEvent.type(screen.getByTestId('join-remark'), 'New nurse');
    await userEvent.click(screen.getByTestId('join-submit'));
    await waitFor(() =>
      expect(bodies(server, '/api/user/joinOrganize')).toEqual([
        { code: '100000000002', remark: 'New nurse' },
      ]),
    );
    expect(await screen.findByTestId('join-applied')).toHaveTextContent(
      'The person in charge will review it',
    );
  });

  it('lets a user without a company create one', async () => {
    localStorage.setItem('accessToken', 't');
    const server = serve({ '/api/index/getUserCompanys': () => [] });
    renderApp('/addTeam');
    // Without a company the creation form is the one shown.
    await userEvent.click(await screen.findByTestId('company-submit', {}, WAIT));
    expect(await screen.findByText('Organization name must be 2-20 characters')).toBeInTheDocument();
    await userEvent.type(screen.getByTestId('company-name'), 'Fresh Farms');
    await choose('company-industry', 'Food');
    await userEvent.type(screen.getByTestId('company-address'), 'Penang');
    await userEvent.click(screen.getByTestId('company-submit'));
    await waitFor(() =>
      expect(bodies(server, '/api/user/createCompany')).toEqual([
        { name: 'Fresh Farms', industry: 'food', address: 'Penang' },
      ]),
    );
    await waitFor(() => expect(currentLocation.path).toBe('/home'), WAIT);
    expect(localStorage.getItem('companyId')).toBe('c9');
  });
});

import type { UserCompany } from '@coldchain/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { stubServer } from '../../test/fake-server';
import { currentLocation, renderApp, resetBrowserState } from '../../test/render-app';
import { bodies, choose } from '../org/test-fixtures';
import { COMPANY_PATHS } from './company-calls';

const PAGE = '/user/personalCenter?panel=companies';
const WAIT = { timeout: 20_000 };

const founded: UserCompany = {
  id: 'c1',
  name: 'Demo Cold Chain',
  industry: 'food',
  region: 'Selangor',
  address: 'Jalan Meru 12',
  isAdmin: true,
  current: true,
  legalPerson: false,
  onlyAdmin: false,
};
const joined: UserCompany = {
  id: 'c2',
  name: 'Second Company',
  industry: 'pharma',
  region: '',
  address: '',
  isAdmin: false,
  current: false,
  legalPerson: false,
  onlyAdmin: false,
};

/** A fake server that keeps the user's companies, so an edit or a leave reads back. */
function serve(initial: UserCompany[]) {
  let companies = initial.map((c) => ({ ...c }));
  return stubServer({
    overrides: {
      '/api/user/personalInfo': () => ({
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
      }),
      '/api/user/industryList': () => [
        { value: 'food', label: 'Food' },
        { value: 'pharma', label: 'Pharmaceuticals' },
      ],
      '/api/index/getUserCompanys': () => companies,
      [COMPANY_PATHS.edit]: (body) => {
        companies = companies.map((c) =>
          c.id === localStorage.getItem('companyId') ? { ...c, ...body } : c,
        );
        return null;
      },
      [COMPANY_PATHS.leave]: (body) => {
        companies = companies.filter((c) => c.id !== body.id);
        return null;
      },
    },
  });
}

async function leave(companyId: string) {
  await userEvent.click(await screen.findByTestId(`company-leave-${companyId}`, {}, WAIT));
  const popup = await screen.findByRole('tooltip');
  await userEvent.click(within(popup).getByRole('button', { name: /leave|退出/i }));
}

beforeAll(async () => {
  await import('.');
}, 60_000);

beforeEach(async () => {
  resetBrowserState();
  localStorage.setItem('accessToken', 't');
  localStorage.setItem('companyId', 'c1');
  await i18n.changeLanguage('en');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('my companies (personal centre)', () => {
  it('shows each company with its industry and location; the administrator edits the one in use', async () => {
    const server = serve([founded, joined]);
    renderApp(PAGE);
    const card = await screen.findByTestId('company-card-c1', {}, WAIT);
    await waitFor(() => expect(card).toHaveTextContent('Food'));
    expect(card).toHaveTextContent('Selangor');
    expect(card).toHaveTextContent('Jalan Meru 12');
    expect(card).toHaveTextContent('Administrator');
    // Only an administrator of the company in scope can edit (the server edits only that one).
    expect(screen.queryByTestId('company-edit-c2')).toBeNull();

    await userEvent.click(screen.getByTestId('company-edit-c1'));
    const name = await screen.findByTestId('company-edit-name');
    await waitFor(() => expect(name).toHaveValue('Demo Cold Chain'));
    await userEvent.clear(name);
    await userEvent.type(name, 'Klang Vaccines');
    await choose('company-edit-industry', 'Pharmaceuticals');
    await userEvent.clear(screen.getByTestId('company-edit-region'));
    await userEvent.type(screen.getByTestId('company-edit-region'), 'Johor');
    await userEvent.clear(screen.getByTestId('company-edit-address'));
    await userEvent.click(screen.getByTestId('company-edit-submit'));

    await waitFor(() =>
      expect(bodies(server, COMPANY_PATHS.edit)).toEqual([
        { name: 'Klang Vaccines', industry: 'pharma', region: 'Johor', address: '' },
      ]),
    );
    expect(await screen.findByText('Company information saved')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('company-card-c1')).toHaveTextContent('Klang Vaccines'));
    expect(screen.getByTestId('company-card-c1')).toHaveTextContent('Johor');
    expect(screen.getByTestId('company-card-c1')).toHaveTextContent('Pharmaceuticals');
  });

  it('refuses an empty name in the form, sending nothing', async () => {
    const server = serve([founded]);
    renderApp(PAGE);
    await userEvent.click(await screen.findByTestId('company-edit-c1', {}, WAIT));
    const name = await screen.findByTestId('company-edit-name');
    await waitFor(() => expect(name).toHaveValue('Demo Cold Chain'));
    await userEvent.clear(name);
    await userEvent.click(screen.getByTestId('company-edit-submit'));
    expect(await screen.findByText('Organization name must be 2-20 characters')).toBeInTheDocument();
    expect(bodies(server, COMPANY_PATHS.edit)).toHaveLength(0);
  });

  it('leaves another company after a confirmation; the one in use stays', async () => {
    const server = serve([founded, joined]);
    renderApp(PAGE);
    await leave('c2');
    await waitFor(() => expect(bodies(server, COMPANY_PATHS.leave)).toEqual([{ id: 'c2' }]));
    expect(await screen.findByText('You left Second Company')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('company-card-c2')).toBeNull());
    expect(localStorage.getItem('companyId')).toBe('c1');
    expect(bodies(server, '/api/index/switchUserCompany')).toHaveLength(0);
  });

  it("leaving the company in use moves the console to another of the user's companies", async () => {
    const server = serve([
      { ...founded, isAdmin: false },
      { ...joined, id: 'c3', name: 'Third Company' },
    ]);
    renderApp(PAGE);
    await leave('c1');
    await waitFor(() => expect(bodies(server, '/api/index/switchUserCompany')).toEqual([{ id: 'c3' }]));
    expect(localStorage.getItem('companyId')).toBe('c3');
    await waitFor(() => expect(currentLocation.path).toBe('/home'));
  });

  it('sends the user who left their last company to join or create one', async () => {
    serve([{ ...founded, isAdmin: false }]);
    renderApp(PAGE);
    await leave('c1');
    await waitFor(() => expect(currentLocation.path).toBe('/addTeam'));
    expect(localStorage.getItem('companyId')).toBeNull();
  });

  it('says why the legal person and the only administrator cannot leave (in Chinese too)', async () => {
    const server = serve([
      { ...founded, legalPerson: true },
      { ...joined, isAdmin: true, onlyAdmin: true },
    ]);
    renderApp(PAGE);
    expect(await screen.findByTestId('company-leave-c1', {}, WAIT)).toBeDisabled();
    expect(screen.getByTestId('company-card-c1')).toHaveTextContent(
      'The legal person cannot leave the company.',
    );
    expect(screen.getByTestId('company-leave-c2')).toBeDisabled();
    expect(screen.getByTestId('company-card-c2')).toHaveTextContent('You are its only administrator');
    await userEvent.click(screen.getByTestId('company-leave-c2'));
    expect(screen.queryByRole('tooltip')).toBeNull();
    expect(bodies(server, COMPANY_PATHS.leave)).toHaveLength(0);

    await i18n.changeLanguage('zh-CN');
    await waitFor(() =>
      expect(screen.getByTestId('company-card-c1')).toHaveTextContent('法人不能退出企业。'),
    );
    expect(screen.getByRole('tab', { name: '我的企业' })).toBeInTheDocument();
    expect(screen.getByTestId('company-card-c1')).toHaveTextContent('所在地区');
  });
});

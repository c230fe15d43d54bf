import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../i18n';
import { stubServer } from '../../../test/fake-server';
import { renderApp, resetBrowserState } from '../../../test/render-app';
import {
  allPowers,
  bodies,
  choose,
  confirmPopup,
  member,
  type Overrides,
  page,
  powersWithout,
  role,
  tree,
} from '../test-fixtures';

const WAIT = { timeout: 20_000 };
const URL = '/user/personnelManagement';
const PAGE_USERS = '/api/personnel/pageUsers';

beforeAll(async () => {
  await import('.');
  await import('./sector');
}, 60_000);

const members = [
  member(),
  member({
    userId: '3',
    name: 'Siti Aminah',
    account: 'siti@example.com',
    phone: '',
    departmentId: '12',
    departmentName: 'Cold room',
    roleId: null,
    roleName: '',
    isLeader: false,
    lastLoginTime: Date.UTC(2025, 5, 3, 4, 5, 6),
  }),
];

function serve(overrides: Overrides = {}) {
  return stubServer({
    overrides: {
      '/api/index/getUserPowers': allPowers,
      '/api/user/userOrganizeList': () => tree,
      [PAGE_USERS]: () => page(members),
      '/api/role/pageRoles': (body) =>
        page(
          body.departmentId === '11'
            ? [role(), role({ id: '22', name: 'Viewer' })]
            : body.departmentId === '12'
              ? [role({ id: '25', departmentId: '12', name: 'Cold room keeper' })]
              : [],
        ),
      '/api/personnel/assignRole': () => null,
      '/api/personnel/moveUser': () => null,
      '/api/personnel/removeUser': () => null,
      ...overrides,
    },
  });
}

beforeEach(async () => {
  resetBrowserState();
  localStorage.setItem('accessToken', 't');
  await i18n.changeLanguage('en');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('personnel management', () => {
  it('lists name, account, phone, department, role, join time and last login', async () => {
    serve();
    renderApp(URL);
    const lee = await screen.findByTestId('member-row-2', {}, WAIT);
    for (const text of [
      'Lee Wei',
      'lee@example.com',
      '+60123456789',
      'Pharmacy',
      'Pharmacist',
      'Person in charge',
    ]) {
      expect(lee).toHaveTextContent(text);
    }
    expect(within(lee).getAllByText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)).toHaveLength(1);
    const siti = screen.getByTestId('member-row-3');
    expect(siti).toHaveTextContent('No role yet');
    expect(within(siti).getAllByText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)).toHaveLength(2);
  });

  it('searches 200 ms after the last change, with only the last text', async () => {
    const server = serve();
    renderApp(URL);
    await screen.findByTestId('member-row-2', {}, WAIT);
    const input = within(screen.getByTestId('member-search')).getByRole('searchbox');
    fireEvent.change(input, { target: { value: 'le' } });
    fireEvent.change(input, { target: { value: 'lee' } });
    expect(bodies(server, PAGE_USERS).some((b) => 'keyword' in b)).toBe(false);
    await waitFor(() =>
      expect(bodies(server, PAGE_USERS).at(-1)).toMatchObject({ keyword: 'lee', pageNum: 1 }),
    );
    expect(bodies(server, PAGE_USERS).filter((b) => b.keyword === 'le')).toHaveLength(0);
  });

  it('filters by department and by a role of that department', async () => {
    const server = serve();
    renderApp(URL);
    await screen.findByTestId('member-row-2', {}, WAIT);
    await choose('member-filter-department', 'Pharmacy');
    await waitFor(() => expect(bodies(server, PAGE_USERS).at(-1)).toMatchObject({ departmentId: '11' }));
    await choose('member-filter-role', 'Viewer');
    await waitFor(() =>
      expect(bodies(server, PAGE_USERS).at(-1)).toMatchObject({ departmentId: '11', roleId: '22' }),
    );
  });

  it('starts at the department of the link on sectorPersonnelManagement', async () => {
    const server = serve();
    renderApp('/user/organization/sectorPersonnelManagement?departmentId=12');
    await screen.findByTestId('member-row-2', {}, WAIT);
    expect(bodies(server, PAGE_USERS)[0]).toMatchObject({ departmentId: '12' });
  });

  it('shows no actions without user:edit', async () => {
    serve({ '/api/index/getUserPowers': powersWithout(['user:edit']) });
    renderApp(URL);
    await screen.findByTestId('member-row-2', {}, WAIT);
    expect(screen.queryByTestId('member-assign-2')).toBeNull();
    expect(screen.queryByTestId('member-move-2')).toBeNull();
    expect(screen.queryByTestId('member-remove-2')).toBeNull();
  });

  it("assigns one of the member's department roles", async () => {
    const server = serve();
    renderApp(URL);
    await userEvent.click(await screen.findByTestId('member-assign-2', {}, WAIT));
    await choose('assign-role', 'Viewer');
    await userEvent.click(screen.getByTestId('assign-submit'));
    await waitFor(() =>
      expect(bodies(server, '/api/personnel/assignRole')).toEqual([{ userId: '2', roleId: '22' }]),
    );
  });

  it('moves a member to another department with a role of it', async () => {
    const server = serve();
    renderApp(URL);
    await userEvent.click(await screen.findByTestId('member-move-2', {}, WAIT));
    await userEvent.click(await screen.findByTestId('move-submit'));
    expect(await screen.findByText('Choose a department')).toBeInTheDocument();
    await choose('move-department', 'Cold room');
    await choose('move-role', 'Cold room keeper');
    await userEvent.click(screen.getByTestId('move-submit'));
    await waitFor(() =>
      expect(bodies(server, '/api/personnel/moveUser')).toEqual([
        { userId: '2', departmentId: '12', roleId: '25' },
      ]),
    );
  });

  it('removes a member after the confirmation', async () => {
    const server = serve();
    renderApp(URL);
    await userEvent.click(await screen.findByTestId('member-remove-3', {}, WAIT));
    await confirmPopup();
    await waitFor(() => expect(bodies(server, '/api/personnel/removeUser')).toEqual([{ userId: '3' }]));
  });
});

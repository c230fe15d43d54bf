import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../i18n';
import { stubServer } from '../../../test/fake-server';
import { renderApp, resetBrowserState } from '../../../test/render-app';
import {
  allPowers,
  bodies,
  detail,
  member,
  type Overrides,
  page,
  powersWithout,
  role,
} from '../test-fixtures';

const WAIT = { timeout: 20_000 };

beforeAll(async () => {
  await import('.');
  await import('../my-department');
}, 60_000);

function serve(overrides: Overrides = {}) {
  return stubServer({
    overrides: {
      '/api/index/getUserPowers': allPowers,
      '/api/user/userOrganizeInfo': () => detail(),
      '/api/userOrganize/myDepartment': () => detail(),
      '/api/personnel/pageUsers': () => page([member()]),
      '/api/role/pageRoles': () => page([role(), role({ id: '22', name: 'Viewer', tags: [] })]),
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

describe('department detail', () => {
  it('shows the department, its own members and its roles', async () => {
    const server = serve();
    renderApp('/user/organization/departmentDetail?id=11');
    const info = await screen.findByTestId('department-info', {}, WAIT);
    for (const text of ['Pharmacy', '100000000002', 'Demo Cold Chain', 'Lee Wei', 'Kuala Lumpur']) {
      expect(info).toHaveTextContent(text);
    }
    // Both device counts: filed here, and with the sub-departments'.
    const valueBeside = (label: string) =>
      [...info.querySelectorAll('.ant-descriptions-item-label')].find((c) => c.textContent === label)
        ?.nextElementSibling?.textContent;
    expect(valueBeside('Devices')).toBe('5');
    expect(valueBeside('Devices (incl. sub-departments)')).toBe('8');
    expect(bodies(server, '/api/user/userOrganizeInfo')).toEqual([{ id: '11' }]);
    expect(await screen.findByTestId('member-row-2')).toHaveTextContent('lee@example.com');
    expect(bodies(server, '/api/personnel/pageUsers')[0]).toMatchObject({
      departmentId: '11',
      includeChildren: false,
    });
    expect(await screen.findByText('Temporary no permissions')).toBeInTheDocument();
    expect(screen.getByText('Devices: View, Edit')).toBeInTheDocument();
  });

  it('leaves out members and roles the user may not see', async () => {
    const server = serve({ '/api/index/getUserPowers': powersWithout(['user:view', 'role:view']) });
    renderApp('/user/myDepartment/departmentDetail?id=11');
    await screen.findByTestId('department-info', {}, WAIT);
    expect(screen.queryByTestId('detail-personnel')).toBeNull();
    expect(screen.queryByTestId('detail-roles')).toBeNull();
    expect(server.mock.calls.some(([input]) => String(input) === '/api/personnel/pageUsers')).toBe(false);
  });
});

describe('my department', () => {
  it("shows the caller's department and its members", async () => {
    serve();
    renderApp('/user/myDepartment');
    const info = await screen.findByTestId('department-info', {}, WAIT);
    expect(info).toHaveTextContent('Pharmacy');
    expect(await screen.findByTestId('member-row-2')).toHaveTextContent('Lee Wei');
  });

  it('uses the members the answer includes, also for a member without user:view', async () => {
    const server = serve({
      '/api/index/getUserPowers': powersWithout(['user:view']),
      '/api/userOrganize/myDepartment': () => ({
        ...detail(),
        members: [member({ userId: '9', name: 'Ahmad' })],
      }),
    });
    renderApp('/user/myDepartment');
    expect(await screen.findByTestId('member-row-9', {}, WAIT)).toHaveTextContent('Ahmad');
    expect(server.mock.calls.some(([input]) => String(input) === '/api/personnel/pageUsers')).toBe(false);
  });

  it('says so when the caller has no department', async () => {
    serve({ '/api/userOrganize/myDepartment': () => null });
    renderApp('/user/myDepartment');
    expect(await screen.findByTestId('my-department-none', {}, WAIT)).toHaveTextContent(
      'You do not belong to a department',
    );
    await waitFor(() =>
      expect(within(screen.getByTestId('page-title')).getByText('My department')).toBeInTheDocument(),
    );
  });
});

import { screen, waitFor, within } from '@testing-library/react';
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
  type Overrides,
  page,
  powersWithout,
  role,
  tree,
} from '../test-fixtures';

const WAIT = { timeout: 20_000 };
const ORG_ROLES = '/user/organization/orgRoleManagement?departmentId=11';

beforeAll(async () => {
  await import('.');
  await import('./org-roles');
}, 60_000);

const roles = [
  role(),
  role({ id: '22', name: 'Viewer', userCount: 0, tags: [] }),
  role({
    id: '23',
    name: 'Pharmacy admin',
    isDepartmentAdmin: true,
    userCount: 1,
    tags: ['org:view', 'user:view'],
  }),
];

function serve(overrides: Overrides = {}) {
  return stubServer({
    overrides: {
      '/api/index/getUserPowers': allPowers,
      '/api/user/userOrganizeList': () => tree,
      '/api/role/pageRoles': (body) => page(body.departmentId === '11' ? roles : []),
      '/api/role/assignableTags': () => ({
        tags: ['device:view', 'device:edit', 'alarm:view'],
        adminTags: ['device:view', 'device:edit', 'alarm:view', 'org:view', 'org:edit', 'user:view'],
      }),
      '/api/role/addRole': () => ({ id: '24' }),
      '/api/role/editRole': () => null,
      '/api/role/deleteRole': () => null,
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

describe('role management', () => {
  it("lists a department's roles with user count and permissions per module", async () => {
    const server = serve();
    renderApp(ORG_ROLES);
    const row = await screen.findByTestId('role-row-21', {}, WAIT);
    expect(bodies(server, '/api/role/pageRoles')[0]).toMatchObject({ departmentId: '11' });
    expect(row).toHaveTextContent('Pharmacist');
    expect(within(row).getByTestId('role-permissions')).toHaveTextContent('Devices: View, Edit');
    expect(within(row).getByTestId('role-permissions')).toHaveTextContent('Alarms: View');
    expect(within(screen.getByTestId('role-row-22')).getByTestId('role-no-permissions')).toHaveTextContent(
      'Temporary no permissions',
    );
    expect(screen.getByTestId('role-row-23')).toHaveTextContent('Department administrator');
    // The department administrator role cannot be deleted.
    expect(screen.queryByTestId('role-delete-23')).toBeNull();
  });

  it("says 'Temporary no permissions' in Chinese too", async () => {
    serve();
    await i18n.changeLanguage('zh-CN');
    renderApp(ORG_ROLES);
    const row = await screen.findByTestId('role-row-22', {}, WAIT);
    expect(row).toHaveTextContent('暂无权限');
  });

  it('picks the department on roleManagement, starting at the top of the tree', async () => {
    const server = serve();
    renderApp('/user/roleManagement');
    await waitFor(
      () => expect(bodies(server, '/api/role/pageRoles')[0]).toMatchObject({ departmentId: '10' }),
      WAIT,
    );
    await choose('role-department', 'Pharmacy');
    expect(await screen.findByTestId('role-row-21', {}, WAIT)).toBeInTheDocument();
    expect(bodies(server, '/api/role/pageRoles').at(-1)).toMatchObject({ departmentId: '11' });
  });

  it('hides add, edit and delete without role:edit', async () => {
    serve({ '/api/index/getUserPowers': powersWithout(['role:edit']) });
    renderApp(ORG_ROLES);
    await screen.findByTestId('role-row-21', {}, WAIT);
    expect(screen.queryByTestId('role-add')).toBeNull();
    expect(screen.queryByTestId('role-edit-21')).toBeNull();
    expect(screen.queryByTestId('role-delete-21')).toBeNull();
  });

  it('checks the role name and offers only the assignable permissions', async () => {
    const server = serve();
    renderApp(ORG_ROLES);
    await userEvent.click(await screen.findByTestId('role-add', {}, WAIT));
    const editor = await screen.findByTestId('permission-editor', {}, WAIT);
    expect(bodies(server, '/api/role/assignableTags')).toEqual([{ departmentId: '11' }]);
    // Only modules with something assignable are listed, and rights beyond them are disabled.
    expect(within(editor).getByText('Devices')).toBeInTheDocument();
    expect(within(editor).getByText('Alarms')).toBeInTheDocument();
    expect(within(editor).queryByText('Organization')).toBeNull();
    expect(screen.getByTestId('perm-device:export')).toBeDisabled();
    expect(screen.getByTestId('perm-alarm:edit')).toBeDisabled();
    expect(screen.getByTestId('perm-device:edit')).toBeEnabled();

    await userEvent.type(screen.getByTestId('role-name'), 'A');
    await userEvent.click(screen.getByTestId('role-submit'));
    expect(
      await screen.findByText(
        'Role name must be 2-20 letters and digits in English, or 2-100 characters in Chinese',
      ),
    ).toBeInTheDocument();
    await userEvent.clear(screen.getByTestId('role-name'));
    await userEvent.type(screen.getByTestId('role-name'), 'A name that is far too long');
    await userEvent.click(screen.getByTestId('role-submit'));
    await waitFor(() => expect(screen.getByText(/Role name must be 2-20/)).toBeInTheDocument());
    expect(bodies(server, '/api/role/addRole')).toHaveLength(0);

    await userEvent.clear(screen.getByTestId('role-name'));
    await userEvent.type(screen.getByTestId('role-name'), 'Nurse');
    // Edit brings view with it.
    await userEvent.click(screen.getByTestId('perm-device:edit'));
    await userEvent.click(screen.getByTestId('role-submit'));
    await waitFor(() =>
      expect(bodies(server, '/api/role/addRole')).toEqual([
        { departmentId: '11', name: 'Nurse', tags: ['device:view', 'device:edit'] },
      ]),
    );
  });

  it('accepts a Chinese role name longer than 20 characters', async () => {
    const server = serve();
    renderApp(ORG_ROLES);
    await userEvent.click(await screen.findByTestId('role-add', {}, WAIT));
    await screen.findByTestId('permission-editor', {}, WAIT);
    await userEvent.type(
      screen.getByTestId('role-name'),
      '冷链药房值班药师负责疫苗冷藏设备巡检与报警处理工作',
    );
    await userEvent.click(screen.getByTestId('role-submit'));
    await waitFor(() => expect(bodies(server, '/api/role/addRole')).toHaveLength(1));
  });

  it('edits a role, dropping view also drops edit', async () => {
    const server = serve();
    renderApp(ORG_ROLES);
    await userEvent.click(await screen.findByTestId('role-edit-21', {}, WAIT));
    await screen.findByTestId('permission-editor', {}, WAIT);
    expect(screen.getByTestId('role-name')).toHaveValue('Pharmacist');
    await userEvent.click(screen.getByTestId('perm-device:view'));
    expect(screen.getByTestId('perm-device:edit')).not.toBeChecked();
    await userEvent.click(screen.getByTestId('role-submit'));
    await waitFor(() =>
      expect(bodies(server, '/api/role/editRole')).toEqual([
        { id: '21', name: 'Pharmacist', tags: ['alarm:view'] },
      ]),
    );
  });

  it('offers the department administrator role its wider ceiling', async () => {
    const server = serve();
    renderApp(ORG_ROLES);
    await userEvent.click(await screen.findByTestId('role-edit-23', {}, WAIT));
    const editor = await screen.findByTestId('permission-editor', {}, WAIT);
    expect(within(editor).getByText('Organization')).toBeInTheDocument();
    expect(screen.getByTestId('perm-org:edit')).toBeEnabled();
    expect(screen.getByTestId('perm-user:edit')).toBeDisabled();
    await userEvent.click(screen.getByTestId('perm-org:edit'));
    await userEvent.click(screen.getByTestId('role-submit'));
    await waitFor(() =>
      expect(bodies(server, '/api/role/editRole')).toEqual([
        { id: '23', name: 'Pharmacy admin', tags: ['org:view', 'org:edit', 'user:view'] },
      ]),
    );
  });

  it('deletes a role after the confirmation', async () => {
    const server = serve();
    renderApp(ORG_ROLES);
    await userEvent.click(await screen.findByTestId('role-delete-22', {}, WAIT));
    await confirmPopup();
    await waitFor(() => expect(bodies(server, '/api/role/deleteRole')).toEqual([{ id: '22' }]));
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../i18n';
import { stubServer } from '../../../test/fake-server';
import { currentLocation, renderApp, resetBrowserState } from '../../../test/render-app';
import {
  allPowers,
  bodies,
  choose,
  confirmPopup,
  joinRequest,
  type Overrides,
  page,
  powersWithout,
  tree,
} from '../test-fixtures';

const URL = '/user/organization';
const WAIT = { timeout: 20_000 };

// The page is loaded lazily by the router: load it once up front so each test's wait is for data.
beforeAll(async () => {
  await import('.');
}, 60_000);

function serve(overrides: Overrides = {}) {
  return stubServer({
    overrides: {
      '/api/index/getUserPowers': allPowers,
      '/api/user/userOrganizeList': () => tree,
      '/api/user/joinRequestList': () => page([joinRequest()]),
      '/api/personnel/memberOptions': () => [
        { id: '2', name: 'Lee Wei' },
        { id: '3', name: 'Siti Aminah' },
      ],
      '/api/userOrganize/deleteDepartment': () => null,
      '/api/userOrganize/transferLeader': () => null,
      '/api/userOrganize/editDepartment': () => null,
      '/api/userOrganize/createInvite': () => ({ id: 'abc123', expireTime: Date.UTC(2025, 5, 2, 8, 0, 0) }),
      '/api/user/incomingAudit': () => null,
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

describe('organization structure', () => {
  it('shows the department tree with code, person in charge, members and devices', async () => {
    serve();
    renderApp(URL);
    const cold = await screen.findByTestId('department-row-12', {}, WAIT);
    expect(cold).toHaveTextContent('Cold room');
    expect(cold).toHaveTextContent('100000000003');
    const pharmacy = screen.getByTestId('department-row-11');
    expect(pharmacy).toHaveTextContent('Pharmacy');
    expect(pharmacy).toHaveTextContent('Lee Wei');
    expect(
      within(pharmacy)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(expect.arrayContaining(['100000000002', '2']));
    // The company root cannot be deleted; its departments can.
    expect(screen.queryByTestId('department-delete-10')).toBeNull();
    expect(screen.getByTestId('department-delete-11')).toBeInTheDocument();
  });

  it("shows each department's own devices and, beside them, its whole subtree's", async () => {
    serve();
    renderApp(URL);
    const root = await screen.findByTestId('department-row-10', {}, WAIT);
    expect(screen.getByRole('columnheader', { name: 'Devices' })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Devices (incl. sub-departments)' })).toBeInTheDocument();
    expect(within(root).getByTestId('department-subtree-devices')).toHaveTextContent('8');
    expect(
      within(screen.getByTestId('department-row-11')).getByTestId('department-subtree-devices'),
    ).toHaveTextContent('3');
  });

  it('shows the tree in Chinese', async () => {
    serve();
    await i18n.changeLanguage('zh-CN');
    renderApp(URL);
    await screen.findByTestId('department-row-12', {}, WAIT);
    expect(screen.getAllByText('部门编码').length).toBeGreaterThan(0);
    expect(screen.getAllByText('设备数（含下级部门）').length).toBeGreaterThan(0);
    expect(screen.getByTestId('department-row-11')).toHaveTextContent('移交负责人');
  });

  it('hides the change buttons without org:edit', async () => {
    serve({ '/api/index/getUserPowers': powersWithout(['org:edit']) });
    renderApp(URL);
    await screen.findByTestId('department-row-12', {}, WAIT);
    for (const id of [
      'department-add',
      'department-edit-11',
      'department-delete-11',
      'department-invite-11',
    ]) {
      expect(screen.queryByTestId(id), id).toBeNull();
    }
    // Reading stays possible: the detail link and the role and personnel links.
    expect(screen.getByTestId('department-name-11')).toBeInTheDocument();
    expect(screen.getByTestId('department-roles-11')).toBeInTheDocument();
  });

  it('lets a person in charge without the tags invite to their department and review applications', async () => {
    const server = stubServer({
      user: { id: '2' },
      overrides: {
        '/api/index/getUserPowers': powersWithout(['org:edit', 'user:edit']),
        '/api/user/userOrganizeList': () => tree,
        '/api/user/joinRequestList': () => page([joinRequest()]),
      },
    });
    renderApp(URL);
    expect(await screen.findByTestId('join-approve-31', {}, WAIT)).toBeInTheDocument();
    expect(screen.getByTestId('department-invite-11')).toBeInTheDocument();
    expect(screen.queryByTestId('department-invite-10')).toBeNull();
    expect(screen.queryByTestId('department-edit-11')).toBeNull();
    expect(bodies(server, '/api/user/joinRequestList')).toHaveLength(1);
  });

  it('asks for no applications when the user may not review them', async () => {
    const server = serve({ '/api/index/getUserPowers': powersWithout(['user:edit']) });
    renderApp(URL);
    await screen.findByTestId('department-row-12', {}, WAIT);
    expect(screen.queryByTestId('join-requests')).toBeNull();
    expect(bodies(server, '/api/user/joinRequestList')).toHaveLength(0);
  });

  it('deletes a department after the confirmation', async () => {
    const server = serve();
    renderApp(URL);
    await userEvent.click(await screen.findByTestId('department-delete-12', {}, WAIT));
    expect(bodies(server, '/api/userOrganize/deleteDepartment')).toHaveLength(0);
    await confirmPopup();
    await waitFor(() => expect(bodies(server, '/api/userOrganize/deleteDepartment')).toEqual([{ id: '12' }]));
  });

  it('transfers the person in charge to a member picked from the member options', async () => {
    const server = serve();
    renderApp(URL);
    await userEvent.click(await screen.findByTestId('department-transfer-11', {}, WAIT));
    expect(await screen.findByText(/loses its related settings and notifications/)).toBeInTheDocument();
    await waitFor(() =>
      expect(bodies(server, '/api/personnel/memberOptions')).toEqual([{ departmentId: '11' }]),
    );
    await choose('transfer-member', 'Siti Aminah');
    await userEvent.click(screen.getByTestId('transfer-submit'));
    await waitFor(() =>
      expect(bodies(server, '/api/userOrganize/transferLeader')).toEqual([{ id: '11', userId: '3' }]),
    );
  });

  it('checks the department name when editing', async () => {
    const server = serve();
    renderApp(URL);
    await userEvent.click(await screen.findByTestId('department-edit-11', {}, WAIT));
    const name = await screen.findByTestId('department-edit-name');
    await userEvent.clear(name);
    await userEvent.type(name, 'P');
    await userEvent.click(screen.getByTestId('department-edit-submit'));
    expect(await screen.findByText('Organization name must be 2-20 characters')).toBeInTheDocument();
    expect(bodies(server, '/api/userOrganize/editDepartment')).toHaveLength(0);
    await userEvent.type(name, 'harmacy North');
    await userEvent.click(screen.getByTestId('department-edit-submit'));
    await waitFor(() =>
      expect(bodies(server, '/api/userOrganize/editDepartment')).toEqual([
        { id: '11', name: 'Pharmacy North', address: 'Kuala Lumpur', imageUrl: '' },
      ]),
    );
  });

  it('creates an invitation link with its 24-hour expiry and copies it', async () => {
    const server = serve();
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderApp(URL);
    await userEvent.click(await screen.findByTestId('department-invite-11', {}, WAIT));
    const link = await screen.findByTestId('invite-link');
    expect(link).toHaveValue(`${window.location.origin}/invite?id=abc123`);
    expect(bodies(server, '/api/userOrganize/createInvite')).toEqual([{ departmentId: '11' }]);
    expect(screen.getByTestId('invite-expiry')).toHaveTextContent(
      /until \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/,
    );
    expect(screen.getByTestId('invite-expiry')).toHaveTextContent('24 hours');
    await userEvent.click(screen.getByTestId('invite-copy'));
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/invite?id=abc123`);
    expect(await screen.findByText('Link copied')).toBeInTheDocument();
  });

  it("says 'Copy failed' when the clipboard refuses", async () => {
    serve();
    const writeText = vi.fn().mockRejectedValue(new Error('denied'));
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderApp(URL);
    await userEvent.click(await screen.findByTestId('department-invite-11', {}, WAIT));
    await userEvent.click(await screen.findByTestId('invite-copy'));
    expect(await screen.findByText('Copy failed')).toBeInTheDocument();
  });

  it('lists pending applications and approves or rejects them', async () => {
    const server = serve();
    renderApp(URL);
    const row = await screen.findByTestId('join-row-31', {}, WAIT);
    expect(row).toHaveTextContent('Tan Mei');
    expect(row).toHaveTextContent('New nurse');
    expect(bodies(server, '/api/user/joinRequestList')[0]).toMatchObject({ state: 1 });
    await userEvent.click(within(row).getByTestId('join-approve-31'));
    await waitFor(() =>
      expect(bodies(server, '/api/user/incomingAudit')).toEqual([{ id: '31', approve: true, remark: '' }]),
    );
    await userEvent.click(within(row).getByTestId('join-reject-31'));
    await confirmPopup();
    await waitFor(() =>
      expect(bodies(server, '/api/user/incomingAudit').at(-1)).toEqual({
        id: '31',
        approve: false,
        remark: '',
      }),
    );
  });

  it('opens the add-department form under a department', async () => {
    serve();
    renderApp(URL);
    await userEvent.click(await screen.findByTestId('department-add-11', {}, WAIT));
    await waitFor(() => expect(currentLocation.path).toBe('/user/organization/addSector?parentId=11'));
  });
});

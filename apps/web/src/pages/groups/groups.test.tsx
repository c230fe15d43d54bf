import {
  buildMenuEntries,
  type DepartmentGroups,
  type GroupingDepartment,
  type GroupWithDevices,
} from '@coldchain/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { envelope, stubServer } from '../../test/fake-server';
import { renderApp, resetBrowserState } from '../../test/render-app';
import { device, sensor } from '../devices/test-fixtures';

const PAGE = '/monitoring/groupingMode';

function group(overrides: Partial<GroupWithDevices>): GroupWithDevices {
  return {
    id: 'g',
    pid: '0',
    departmentId: 'd2',
    name: 'G',
    state: 1,
    deviceCount: 0,
    devices: [],
    children: [],
    ...overrides,
  };
}

const ward = group({
  id: 'g2',
  pid: 'g1',
  name: 'Ward fridges',
  state: 2,
  deviceCount: 1,
  devices: [
    device({
      id: '12',
      serial: 'DEMO0012',
      name: 'Ward fridge (warm)',
      state: 2,
      sensors: [sensor({ value: 10.4 })],
    }),
  ],
});
const vaccines = group({
  id: 'g1',
  name: 'Vaccine fridges',
  state: 2,
  deviceCount: 1,
  devices: [device({ id: '1', serial: 'DEMO0001', name: 'Vaccine fridge 1', state: 1 })],
  children: [ward],
});
const rooms = group({ id: 'g3', departmentId: 'd3', name: 'Cold rooms', state: 4 });

const GROUPING: GroupingDepartment[] = [
  { id: 'd1', name: 'Demo Cold Chain', state: 1, groups: [], devices: [] },
  {
    id: 'd2',
    name: 'Pharmacy',
    state: 2,
    groups: [vaccines],
    devices: [device({ id: '3', serial: 'DEMO0003', name: 'Loose fridge', state: 1 })],
  },
  { id: 'd3', name: 'Cold Store', state: 4, groups: [rooms], devices: [] },
];

const strip = ({ devices: _d, children, ...node }: GroupWithDevices): DepartmentGroups['groups'][number] => ({
  ...node,
  children: children.map(strip),
});
const DEPARTMENTS: DepartmentGroups[] = [
  { id: 'd1', pid: '0', name: 'Demo Cold Chain', level: 1, groups: [] },
  { id: 'd2', pid: 'd1', name: 'Pharmacy', level: 2, groups: [strip(vaccines)] },
  { id: 'd3', pid: 'd1', name: 'Cold Store', level: 2, groups: [strip(rooms)] },
];

type Overrides = NonNullable<NonNullable<Parameters<typeof stubServer>[0]>['overrides']>;

function serve(overrides: Overrides = {}, authTags?: string[]) {
  const tags = new Set(authTags);
  return stubServer({
    overrides: {
      ...(authTags
        ? {
            '/api/index/getUserPowers': () => ({
              menus: buildMenuEntries(tags, tags),
              authTags,
              serviceAuthTags: [],
            }),
          }
        : {}),
      '/api/group/groupDevices': (body) =>
        body.departmentId ? GROUPING.filter((d) => d.id === body.departmentId) : GROUPING,
      '/api/group/departmentGroups': () => DEPARTMENTS,
      '/api/group/addGroup': () => ({ id: 'g9' }),
      '/api/group/editGroup': () => null,
      '/api/group/moveGroup': () => null,
      '/api/group/deleteGroup': () => null,
      ...overrides,
    },
  });
}

function bodies(server: ReturnType<typeof stubServer>, path: string) {
  return server.mock.calls
    .filter(([input]) => String(input) === path)
    .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>);
}

async function openPage() {
  renderApp(PAGE);
  return screen.findByTestId('grouping-department-Pharmacy');
}

beforeEach(async () => {
  resetBrowserState();
  localStorage.setItem('accessToken', 't');
  await i18n.changeLanguage('en');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('grouping mode', () => {
  it('shows each department with its group tree, state colours and device cards with live values', async () => {
    serve();
    const pharmacy = await openPage();
    expect(screen.getByTestId('page-title')).toHaveTextContent('Grouping mode');
    const vaccineGroup = within(pharmacy).getByTestId('group-Vaccine fridges');
    // The parent takes the worst state of its sub-group (alarm).
    const state = within(vaccineGroup).getAllByTestId('group-state')[0]!;
    expect(state).toHaveTextContent('Alarm');
    expect(state).toHaveAttribute('data-color', 'red');
    const sub = within(vaccineGroup).getByTestId('group-Ward fridges');
    expect(within(sub).getByTestId('grouping-device-DEMO0012')).toHaveTextContent('10.4 °C');
    expect(within(vaccineGroup).getByTestId('grouping-device-DEMO0001')).toHaveTextContent('4.2 °C');
    expect(within(pharmacy).getByTestId('grouping-ungrouped')).toHaveTextContent('Loose fridge');
    const store = screen.getByTestId('grouping-department-Cold Store');
    expect(
      within(within(store).getByTestId('group-Cold rooms')).getByTestId('group-state'),
    ).toHaveTextContent('Offline');
    expect(screen.getByTestId('grouping-department-Demo Cold Chain')).toHaveTextContent(
      'No groups or monitors',
    );
  });

  it('filters to one department', async () => {
    const server = serve();
    await openPage();
    fireEvent.mouseDown(within(screen.getByTestId('grouping-department-filter')).getByRole('combobox'));
    await userEvent.click(await screen.findByTitle('Cold Store'));
    await waitFor(() => expect(screen.queryByTestId('grouping-department-Pharmacy')).toBeNull());
    expect(bodies(server, '/api/group/groupDevices').at(-1)).toEqual({ departmentId: 'd3' });
  });

  it('adds a group: the 2-20 character rule stops the call, then the group is added under a parent', async () => {
    const server = serve();
    const pharmacy = await openPage();
    await userEvent.click(within(pharmacy).getByTestId('group-add'));
    await userEvent.type(await screen.findByTestId('group-name'), 'A');
    await userEvent.click(screen.getByTestId('group-form-submit'));
    expect(await screen.findByText('Group name must be 2-20 characters')).toBeInTheDocument();
    await userEvent.type(screen.getByTestId('group-name'), 'x'.repeat(20));
    await userEvent.click(screen.getByTestId('group-form-submit'));
    expect(await screen.findByText('Group name must be 2-20 characters')).toBeInTheDocument();
    expect(bodies(server, '/api/group/addGroup')).toEqual([]);

    await userEvent.clear(screen.getByTestId('group-name'));
    await userEvent.type(screen.getByTestId('group-name'), '疫苗冷柜');
    fireEvent.mouseDown(within(screen.getByTestId('group-parent')).getByRole('combobox'));
    await userEvent.click(await screen.findByTitle('Vaccine fridges'));
    await userEvent.click(screen.getByTestId('group-form-submit'));
    await waitFor(() =>
      expect(bodies(server, '/api/group/addGroup')).toEqual([
        { departmentId: 'd2', name: '疫苗冷柜', parentId: 'g1' },
      ]),
    );
  });

  it('shows the server refusal of a taken name and keeps the dialog open', async () => {
    serve({
      '/api/group/addGroup': envelope(null, 500, 'A group with this name already exists in the department'),
    });
    const pharmacy = await openPage();
    await userEvent.click(within(pharmacy).getByTestId('group-add'));
    await userEvent.type(await screen.findByTestId('group-name'), 'Vaccine fridges');
    await userEvent.click(screen.getByTestId('group-form-submit'));
    expect(
      await screen.findByText('A group with this name already exists in the department'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('group-name')).toBeInTheDocument();
  });

  it('renames and deletes a group', async () => {
    const server = serve();
    const pharmacy = await openPage();
    const vaccineGroup = within(pharmacy).getByTestId('group-Vaccine fridges');
    await userEvent.click(within(vaccineGroup).getAllByTestId('group-edit')[0]!);
    const name = await screen.findByTestId('group-name');
    expect(name).toHaveValue('Vaccine fridges');
    await userEvent.clear(name);
    await userEvent.type(name, 'Vaccines');
    await userEvent.click(screen.getByTestId('group-form-submit'));
    await waitFor(() =>
      expect(bodies(server, '/api/group/editGroup')).toEqual([{ id: 'g1', name: 'Vaccines' }]),
    );

    const rooms = within(screen.getByTestId('grouping-department-Cold Store')).getByTestId(
      'group-Cold rooms',
    );
    await userEvent.click(within(rooms).getByTestId('group-delete'));
    await userEvent.click(await screen.findByTestId('group-delete-confirm'));
    await waitFor(() => expect(bodies(server, '/api/group/deleteGroup')).toEqual([{ id: 'g3' }]));
  });

  it('names the refused moves: another department, the company, into itself; then moves', async () => {
    const server = serve();
    const pharmacy = await openPage();
    const vaccineGroup = within(pharmacy).getByTestId('group-Vaccine fridges');
    await userEvent.click(within(vaccineGroup).getAllByTestId('group-move')[0]!);
    await screen.findByText('Move group Vaccine fridges');
    const pickDepartment = async (title: string | RegExp) => {
      fireEvent.mouseDown(within(screen.getByTestId('group-move-department')).getByRole('combobox'));
      await userEvent.click(await screen.findByTitle(title));
    };
    const submit = () => userEvent.click(screen.getByTestId('group-move-submit'));

    await pickDepartment(/Cold Store$/);
    await submit();
    expect(await screen.findByText('A group cannot be moved to another department')).toBeInTheDocument();
    await pickDepartment('Demo Cold Chain');
    await submit();
    expect(await screen.findByText('A group cannot be moved to the company')).toBeInTheDocument();
    await pickDepartment(/Pharmacy$/);
    fireEvent.mouseDown(within(screen.getByTestId('group-move-parent')).getByRole('combobox'));
    await userEvent.click(await screen.findByTitle(/Ward fridges$/));
    await submit();
    expect(
      await screen.findByText('A group cannot be moved into itself or one of its sub-groups'),
    ).toBeInTheDocument();
    expect(bodies(server, '/api/group/moveGroup')).toEqual([]);

    // Moving the sub-group to the top of its department is allowed.
    await userEvent.click(screen.getByRole('button', { name: /cancel/i }));
    const sub = within(vaccineGroup).getByTestId('group-Ward fridges');
    await userEvent.click(within(sub).getByTestId('group-move'));
    await screen.findByText('Move group Ward fridges');
    const clear = screen.getByTestId('group-move-parent').querySelector('.ant-select-clear');
    fireEvent.mouseDown(clear!);
    fireEvent.mouseUp(clear!);
    fireEvent.click(clear!);
    await submit();
    await waitFor(() =>
      expect(bodies(server, '/api/group/moveGroup')).toEqual([{ id: 'g2', departmentId: 'd2' }]),
    );
  });

  it('hides the group actions from people without device:edit', async () => {
    serve({}, ['monitoring:view', 'device:view']);
    const pharmacy = await openPage();
    expect(within(pharmacy).queryByTestId('group-add')).toBeNull();
    expect(within(pharmacy).queryByTestId('group-move')).toBeNull();
  });
});
